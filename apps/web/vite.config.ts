import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

/**
 * VITE_APP_NAME sets the title, manifest and in-app name at build time; unset, the app shows the
 * localized default. The build records it (and the version) in app-config.json for the server.
 */
function appName(name: string | null, version: string): Plugin {
  return {
    name: 'pa-app-name',
    transformIndexHtml: (html) => html.replaceAll('%APP_NAME%', name ?? 'Promotion Assistant'),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'app-config.json', source: JSON.stringify({ appName: name, version }) });
    },
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  const name = (process.env.VITE_APP_NAME ?? env.VITE_APP_NAME ?? '').trim() || null;
  const version = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')).version as string;
  return {
    base: './',
    plugins: [react(), appName(name, version)],
    define: { __APP_VERSION__: JSON.stringify(version) },
    build: {
      manifest: true,
      target: 'es2020',
      chunkSizeWarningLimit: 400,
    },
    server: { proxy: { '/api': 'http://localhost:3000' } },
  };
});
