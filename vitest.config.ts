import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** The web app's `@/…` imports (apps/web/tsconfig.json's paths, as in apps/web/vite.config.ts). */
const webAlias = [{ find: /^@\//, replacement: `${path.resolve(import.meta.dirname, 'apps/web/src')}/` }];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['packages/shared/test/**/*.test.ts'] } },
      { test: { name: 'server', include: ['apps/server/test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } },
      { resolve: { alias: webAlias }, test: { name: 'web', include: ['apps/web/test/**/*.test.ts'] } },
      { test: { name: 'e2e', include: ['e2e/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 240_000, fileParallelism: false } },
    ],
  },
});
