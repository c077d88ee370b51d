/** Reads config, opens the database, listens, and shuts down gracefully on SIGTERM / SIGINT. */
import { buildApp, LOG_REDACT } from './app';
import { createContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { seedDemo } from './seed-demo';
import { startCommissionScheduler } from './modules/commissions/scheduler';
import { startMaintenance } from './platform/maintenance';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const { ctx, handle } = await createContext(config);
  if (process.argv.includes('--demo')) {
    const demo = await seedDemo(ctx);
    if (demo) {
      console.log('\nDemo data created (shown once). Sign in with:');
      console.table(demo);
    }
  }
  const app = await buildApp(ctx, { logger: { level: config.logLevel, redact: LOG_REDACT } });

  const stopMaintenance = startMaintenance(ctx.db, app.log);
  const stopScheduler = startCommissionScheduler(ctx, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      stopMaintenance();
      stopScheduler();
      await app.close(); // stops accepting, waits for in-flight requests, writes buffered clicks
      app.log.info({ clicksAccepted: ctx.clicks.accepted, clicksWritten: ctx.clicks.written }, 'stopped');
      await handle.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Promotion Assistant on http://localhost:${config.port} (${handle.dialect})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
