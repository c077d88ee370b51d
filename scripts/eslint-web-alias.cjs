/**
 * An eslint-plugin-import resolver for the web app's `@/…` imports (apps/web/tsconfig.json's
 * paths): `@/lib/format` is apps/web/src/lib/format. The import boundaries and the cycle check
 * (eslint.config.js) see through the alias only with it; everything else goes to the node resolver.
 */
const path = require('node:path');
const node = require('eslint-import-resolver-node');

const WEB_SRC = path.resolve(__dirname, '../apps/web/src');

exports.interfaceVersion = 2;
exports.resolve = (source, file, config) =>
  node.resolve(source.startsWith('@/') ? path.join(WEB_SRC, source.slice(2)) : source, file, config);
