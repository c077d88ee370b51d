/**
 * How the PostgreSQL connections talk to the server: fewer round trips and less parsing than
 * node-postgres does on its own, behind the `query(text, values)` that Kysely calls.
 *
 * - **Statements prepared once per connection.** A statement text seen a few times gets a name;
 *   node-postgres then parses it once per connection and afterwards only binds new values (the
 *   server keeps its plan). Kysely sends every query unnamed, which makes the server parse and plan
 *   the same insert afresh on every call — on the sale path that was over a third of its work.
 * - **Write-behind inside a transaction.** A statement marked with `WRITE_BEHIND` (the multi-row
 *   writes of `writeRows`, whose result nobody reads) is not sent at once: the marked statements
 *   queue on the connection and go out as one statement, a chain of data-modifying `with` clauses,
 *   just before the next statement of the transaction — a read, another write, or the commit. A
 *   group commit's ten writes cost one round trip instead of ten. Anything that reads therefore
 *   sees them, as if each had been sent at once; a failure among them is reported by the statement
 *   that sent them (the commit, at the latest), which rolls the transaction back. A rollback drops
 *   the queue. Outside a transaction nothing waits.
 *
 * - **A lost connection is the database's being unavailable, not a crash.** A connection ended by
 *   the server (a restart, a failover, `pg_terminate_backend`, an idle cut-off) is reported to
 *   `onConnectionError` and leaves the pool, which connects afresh when next asked; the statements
 *   it cut fail marked as such (db/unavailable.ts), with whether anything may have been written. A
 *   read outside a transaction is sent once more on a new connection; nothing more is sent on the
 *   lost one (a rollback there is answered here: the server ended the transaction with it).
 *
 * The clauses of one statement share a snapshot, and PostgreSQL refuses to update a row twice in
 * one statement: a table that appears twice in the queue starts a new statement. PostgreSQL runs
 * the clauses last first (the rollups' rows are locked before the balances'): every transaction
 * writing the same tables must queue them in the same order, and a statement sent in the middle
 * of a flush changes that order (platform/ledger.ts writes its debits last for this reason).
 */
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isConnectionLoss, markUnavailable } from './unavailable';

/** Prefix of a statement that may wait for the next one (its result is not used). */
export const WRITE_BEHIND = '/*write-behind*/ ';

/** A statement text is prepared (named) once it has been sent this many times. */
const PREPARE_AFTER = 2;
/** At most this many named statements (each connection keeps a plan for those it has used). */
const MAX_NAMED = 400;

interface Queued {
  text: string;
  values: readonly unknown[];
  table: string;
}

type QueryResult = { command: string; rowCount: number | null; rows: unknown[] };

/** Statement names, shared by every connection of the process (the same text, the same name). */
class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Map<string, number>();

  nameFor(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= MAX_NAMED) return name;
    const count = (this.seen.get(text) ?? 0) + 1;
    if (count < PREPARE_AFTER) {
      // Texts that never repeat (an `in` list of a new length, say) must not pile up here.
      if (this.seen.size >= 10_000) this.seen.clear();
      this.seen.set(text, count);
      return undefined;
    }
    this.seen.delete(text);
    const fresh = `pa${this.names.size + 1}`;
    this.names.set(text, fresh);
    return fresh;
  }
}

const PLAIN_BEGIN = /^\s*begin\s*;?\s*$/i;
const TX_START = /^\s*(begin|start\s+transaction)\b/i;
const COMMIT = /^\s*(commit|end)\s*;?\s*$/i;
const ROLLBACK = /^\s*rollback\s*;?\s*$/i;
const INSERT_TABLE = /^\s*insert\s+into\s+"?([\w.]+)"?/i;

const READ = /^\s*(select|show)\b/i;

/** One pooled connection as Kysely sees it. */
class Connection {
  private queue: Queued[] = [];
  /** In a transaction whose `begin` has been sent (open), is still held back (pending), or in none. */
  private state: 'none' | 'pending' | 'open' = 'none';
  /** Checked out of the pool (a connection error is then this connection's to report). */
  inUse = false;
  /**
   * The connection is gone (its client reported an error, or a statement failed for a lost
   * connection): nothing more is sent on it, and it leaves the pool when released.
   */
  broken = false;
  /** Its loss has been reported (node-postgres may report one loss twice: the server's message, then the socket's end). */
  reported = false;

  constructor(
    private client: pg.PoolClient,
    private readonly names: StatementNames,
    private readonly owner: PipelinedPool,
  ) {}

  async query(text: string, values: readonly unknown[] = []): Promise<QueryResult> {
    if (text.startsWith(WRITE_BEHIND)) {
      const statement = text.slice(WRITE_BEHIND.length);
      if (this.state === 'none') return this.send(statement, values, false);
      const table = INSERT_TABLE.exec(statement)?.[1];
      if (!table || statement.includes("'") || statement.includes('--')) throw new Error(`not a plain insert: ${statement.slice(0, 80)}`);
      this.queue.push({ text: statement, values, table });
      return { command: 'INSERT', rowCount: 0, rows: [] };
    }
    if (PLAIN_BEGIN.test(text) && this.state === 'none') {
      // Sent with the transaction's first statement that cannot wait (see above).
      this.state = 'pending';
      return { command: 'BEGIN', rowCount: null, rows: [] };
    }
    if (ROLLBACK.test(text)) {
      this.queue = [];
      const begun = this.state === 'open';
      this.state = 'none';
      // A transaction on a lost connection ended with it: rolled back by the server, nothing to send.
      return begun && !this.broken ? this.send(text, values, true) : { command: 'ROLLBACK', rowCount: null, rows: [] };
    }
    if (COMMIT.test(text) && this.state === 'pending') {
      // Nothing was sent yet: the queued writes alone, as one statement when they fit in one —
      // a statement is atomic by itself — else in a transaction of their own.
      this.state = 'none';
      const statements = this.takeQueued();
      if (statements.length === 1) await this.send(statements[0]!.text, statements[0]!.values, false);
      else if (statements.length > 1) {
        await this.send('begin', [], true);
        try {
          for (const st of statements) await this.send(st.text, st.values, true);
        } catch (error) {
          if (!this.broken) await this.send('rollback', [], true);
          throw error;
        }
        await this.send('commit', [], false);
      }
      return { command: 'COMMIT', rowCount: null, rows: [] };
    }
    if (this.state === 'pending') {
      this.state = 'open';
      await this.send('begin', [], true);
    }
    for (const st of this.takeQueued()) await this.send(st.text, st.values, true);
    if (this.state === 'none' && READ.test(text)) return this.read(text, values);
    // Inside a transaction, a statement cut by a lost connection is rolled back with it; a commit's
    // or a lone write's fate is unknown when its answer is lost.
    const unwritten = this.state === 'open' && !COMMIT.test(text);
    if (TX_START.test(text)) this.state = 'open';
    else if (COMMIT.test(text)) this.state = 'none';
    return this.send(text, values, unwritten || TX_START.test(text));
  }

  release(error?: Error | boolean) {
    // Kysely ends every transaction before releasing; a queue left here was never committed.
    this.queue = [];
    this.state = 'none';
    this.inUse = false;
    // A broken client is not given back for reuse: the pool ends it and makes another when needed.
    // `||`, not `??`: Kysely (0.28.19) passes `false` for "no error", which must not hide `broken`.
    this.client.release(error || this.broken);
  }

  /**
   * A read outside a transaction whose connection was lost (a database restart, a failover, an
   * idle cut-off) is sent once more, on a new connection: it wrote nothing.
   */
  private async read(text: string, values: readonly unknown[]): Promise<QueryResult> {
    try {
      return await this.send(text, values, true);
    } catch (error) {
      if (!this.broken) throw error;
      const fresh = await this.owner.replace(this, this.client);
      this.client.release(true);
      this.client = fresh;
      this.broken = false;
      this.reported = false;
      return this.send(text, values, true);
    }
  }

  /**
   * `unwritten`: when this statement is cut by a lost connection, certainly nothing was written
   * (see db/unavailable.ts); a statement on a connection already known lost is never sent at all.
   */
  private async send(text: string, values: readonly unknown[], unwritten: boolean): Promise<QueryResult> {
    const neverSent = this.broken;
    const name = this.names.nameFor(text);
    try {
      return (await this.client.query(name ? { name, text, values: [...values] } : { text, values: [...values] })) as QueryResult;
    } catch (error) {
      if (neverSent || this.broken || isConnectionLoss(error)) {
        this.broken = true;
        markUnavailable(error, unwritten || neverSent);
        this.owner.lost(this, error as Error);
      }
      throw error;
    }
  }

  /** The queued writes as few statements as can hold them (a table twice starts another), queue emptied. */
  private takeQueued(): { text: string; values: unknown[] }[] {
    const statements: { text: string; values: unknown[] }[] = [];
    while (this.queue.length > 0) {
      const tables = new Set<string>();
      let n = 0;
      while (n < this.queue.length && !tables.has(this.queue[n]!.table)) tables.add(this.queue[n++]!.table);
      const part = this.queue.slice(0, n);
      this.queue = this.queue.slice(n);
      const values: unknown[] = [];
      const clauses = part.map((w, i) => {
        const offset = values.length;
        values.push(...w.values);
        return `w${i} as (${w.text.replace(/\$(\d+)/g, (_, k: string) => `$${Number(k) + offset}`)})`;
      });
      statements.push(part.length === 1 ? { text: part[0]!.text, values } : { text: `with ${clauses.join(', ')} select 1`, values });
    }
    return statements;
  }
}

export interface PipelinedPoolOptions {
  /**
   * A connection was lost or failed (a database restart, a failover, an idle cut-off). It is
   * reported here, never thrown: the pool drops the connection and makes a new one when next needed.
   */
  onConnectionError?: (error: Error) => void;
}

/** The pool Kysely is given: node-postgres's, with each client wrapped in a `Connection` (see above). */
class PipelinedPool {
  private readonly names = new StatementNames();
  private readonly connections = new WeakMap<pg.PoolClient, Connection>();
  private readonly watched = new WeakSet<pg.PoolClient>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly onConnectionError: (error: Error) => void,
  ) {
    // An idle client whose connection ends is removed by the pool, which then emits `error`: with
    // no listener, that would throw out of the socket's callback and end the process.
    pool.on('error', (error) => this.onConnectionError(error));
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.take();
    let connection = this.connections.get(client);
    if (!connection) this.connections.set(client, (connection = new Connection(client, this.names, this)));
    connection.inUse = true;
    return connection as unknown as PostgresPoolClient;
  }

  /** A new client for `connection`, whose own (`lost`) was lost: the caller releases that one. */
  async replace(connection: Connection, lost: pg.PoolClient): Promise<pg.PoolClient> {
    const client = await this.take();
    // What the lost client still reports is no longer this connection's.
    this.connections.delete(lost);
    this.connections.set(client, connection);
    return client;
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  /**
   * A checked-out connection was lost: reported once, whether its client's `error` event or a
   * statement's failure says so first (a connection released meanwhile is ended without the event).
   */
  lost(connection: Connection, error: Error): void {
    if (connection.reported) return;
    connection.reported = true;
    this.onConnectionError(error);
  }

  /** A client from the pool; one that cannot be had is the database's being unavailable, with nothing written. */
  private async take(): Promise<pg.PoolClient> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      markUnavailable(error, true);
      throw error;
    }
    if (!this.watched.has(client)) {
      this.watched.add(client);
      // A checked-out client has no listener of the pool's: its connection ending (with or without
      // a statement under way) must not be an unhandled `error` either. The statement under way
      // fails by itself; the connection is marked so that nothing more is sent on it.
      client.on('error', (error: Error) => {
        const connection = this.connections.get(client);
        if (!connection) return;
        connection.broken = true;
        if (connection.inUse) this.lost(connection, error);
      });
    }
    return client;
  }
}

/**
 * A pool for Kysely's PostgresDialect whose connections prepare repeated statements and hold
 * marked writes back until the next statement, and survive the loss of a connection (see above).
 */
export function pipelinedPool(pool: pg.Pool, options: PipelinedPoolOptions = {}): PostgresPool {
  const wrapped = new PipelinedPool(pool, options.onConnectionError ?? (() => undefined));
  return { connect: () => wrapped.connect(), end: () => wrapped.end() };
}
