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
 * The clauses of one statement share a snapshot, and PostgreSQL refuses to update a row twice in
 * one statement: a table that appears twice in the queue starts a new statement.
 */
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

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

/** One pooled connection as Kysely sees it. */
class Connection {
  private queue: Queued[] = [];
  /** In a transaction whose `begin` has been sent (open), is still held back (pending), or in none. */
  private state: 'none' | 'pending' | 'open' = 'none';

  constructor(
    private readonly client: pg.PoolClient,
    private readonly names: StatementNames,
  ) {}

  async query(text: string, values: readonly unknown[] = []): Promise<QueryResult> {
    if (text.startsWith(WRITE_BEHIND)) {
      const statement = text.slice(WRITE_BEHIND.length);
      if (this.state === 'none') return this.send(statement, values);
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
      return begun ? this.send(text, values) : { command: 'ROLLBACK', rowCount: null, rows: [] };
    }
    if (COMMIT.test(text) && this.state === 'pending') {
      // Nothing was sent yet: the queued writes alone, as one statement when they fit in one —
      // a statement is atomic by itself — else in a transaction of their own.
      this.state = 'none';
      const statements = this.takeQueued();
      if (statements.length === 1) await this.send(statements[0]!.text, statements[0]!.values);
      else if (statements.length > 1) {
        await this.send('begin', []);
        try {
          for (const st of statements) await this.send(st.text, st.values);
        } catch (error) {
          await this.send('rollback', []);
          throw error;
        }
        await this.send('commit', []);
      }
      return { command: 'COMMIT', rowCount: null, rows: [] };
    }
    if (this.state === 'pending') {
      this.state = 'open';
      await this.send('begin', []);
    }
    for (const st of this.takeQueued()) await this.send(st.text, st.values);
    if (TX_START.test(text)) this.state = 'open';
    else if (COMMIT.test(text)) this.state = 'none';
    return this.send(text, values);
  }

  release(error?: Error | boolean) {
    // Kysely ends every transaction before releasing; a queue left here was never committed.
    this.queue = [];
    this.state = 'none';
    this.client.release(error);
  }

  private send(text: string, values: readonly unknown[]): Promise<QueryResult> {
    const name = this.names.nameFor(text);
    return this.client.query(name ? { name, text, values: [...values] } : { text, values: [...values] }) as Promise<QueryResult>;
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

/**
 * A pool for Kysely's PostgresDialect whose connections prepare repeated statements and hold
 * marked writes back until the next statement (see above).
 */
export function pipelinedPool(pool: pg.Pool): PostgresPool {
  const names = new StatementNames();
  const connections = new WeakMap<pg.PoolClient, Connection>();
  return {
    async connect() {
      const client = await pool.connect();
      let connection = connections.get(client);
      if (!connection) connections.set(client, (connection = new Connection(client, names)));
      return connection as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}
