/**
 * The landing-page snippet (`<base>/pa.js`, issue 17): read once from pa.js beside this module (the
 * compiled server's build copies it beside the bundle, scripts/build-server.mjs), with
 * its version (a digest of its bytes) and a gzip copy. Served with the version in its address it is
 * cached for a year; without, for an hour (docs/integrations.md).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';

export interface Snippet {
  source: Buffer;
  gzip: Buffer;
  /** The first 12 hex digits of the SHA-256 of `source`: `pa.js?v=<version>`. */
  version: string;
}

let loaded: Snippet | null = null;

export function snippet(): Snippet {
  if (!loaded) {
    const source = fs.readFileSync(new URL('./pa.js', import.meta.url));
    loaded = { source, gzip: gzipSync(source, { level: 9 }), version: createHash('sha256').update(source).digest('hex').slice(0, 12) };
  }
  return loaded;
}
