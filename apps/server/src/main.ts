/** Reads config, opens the database, listens, and shuts down gracefully on SIGTERM / SIGINT. */
import { buildApp, buildMetricsApp, LOG_REDACT } from './app';
import { createContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { seedDemo } from './seed-demo';
import { startCommissionScheduler, startLedgerChecks } from './modules/commissions/scheduler';
import { startWebhookDispatcher } from './modules/webhooks/service';
import { startMailDispatcher } from './modules/mail/service';
import { startMaintenance } from './platform/maintenance';
import { limitConnectionsPerAddress, trustedProxy } from './platform/connection-limit';
import { UnsupportedNodeError } from './db/node-support';

/** Shutdown: how long open connections may take to finish before they are cut (the process exits by force at 10 s). */
const SHUTDOWN_GRACE_MS = 5000;

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
  // A PostgreSQL connection the server ended (a restart, a failover, an idle cut-off) is logged;
  // the pool connects afresh when next needed (db/pg-client.ts).
  handle.onConnectionError = (error) => app.log.warn({ err: error }, 'database connection lost');

  const stopMaintenance = startMaintenance(ctx.db, app.log);
  const stopScheduler = startCommissionScheduler(ctx, app.log);
  const stopWebhooks = startWebhookDispatcher(ctx, app.log);
  const stopMail = startMailDispatcher(ctx, app.log);
  const stopLedgerChecks = startLedgerChecks(ctx, app.log, config.ledgerCheckIntervalMs);
  // /metrics on a listener of its own (METRICS_HOST/METRICS_PORT), e.g. reachable only from the monitoring network.
  const metricsListener = config.metrics?.listener ?? null;
  const metricsApp = metricsListener ? await buildMetricsApp(ctx, { logger: { level: config.logLevel, redact: LOG_REDACT } }) : null;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Connections still open after a grace period (an upload still arriving, a client holding a
    // kept-alive connection) are cut, so the buffers are written well before the forced exit.
    const cut = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    cut.unref();
    // Node closes the idle kept-alive connections once, when closing starts; a connection whose
    // request was under way then becomes idle later and would hold the close up until the cut.
    const reap = setInterval(() => app.server.closeIdleConnections(), 100);
    reap.unref();
    try {
      // Stop accepting, answer the requests under way, wait for work whose client has gone, write
      // the conversion batch and the buffered clicks (app.ts's onClose); the background jobs finish
      // their run; only then is the database closed.
      await Promise.all([app.close(), metricsApp?.close(), stopMaintenance(), stopScheduler(), stopWebhooks(), stopMail(), stopLedgerChecks()]);
      clearTimeout(cut);
      clearInterval(reap);
      app.log.info({ clicksAccepted: ctx.clicks.accepted, clicksWritten: ctx.clicks.written, groupCommits: ctx.uow.stats.batches, itemsCommitted: ctx.uow.stats.items }, 'stopped');
      await handle.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // New connections past the bound are refused at once, so that clients holding connections open
  // cannot use up the open-file limit (the database, the logs and api/health need descriptors too);
  // and one address (not a trusted proxy) holds at most MAX_CONNECTIONS_PER_ADDRESS of them, so
  // that one client cannot lock everyone else out.
  app.server.maxConnections = config.maxConnections;
  limitConnectionsPerAddress(app.server, config.maxConnectionsPerAddress, trustedProxy(config.trustProxy), (peer, since) => {
    app.log.warn({ peer, refused: since, limit: config.maxConnectionsPerAddress }, 'connections past MAX_CONNECTIONS_PER_ADDRESS refused');
  });
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Promotion Assistant on http://localhost:${config.port} (${handle.dialect})`);
  if (metricsApp && metricsListener) {
    await metricsApp.listen({ port: metricsListener.port, host: metricsListener.host });
    app.log.info(`Metrics on http://${metricsListener.host}:${metricsListener.port}/metrics`);
  }
}

main().catch((error: unknown) => {
  // Too old a Node: its sentence alone (db/node-support.ts).
  console.error(error instanceof UnsupportedNodeError ? error.message : error);
  process.exit(1);
});
