/** Shared by the benchmarks: a free loopback port, and waiting for a server to answer. */
import net from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers at all (any status, redirects not followed). */
export async function waitFor(url: string) {
  for (let i = 0; i < 150; i++) {
    if (await fetch(url, { redirect: 'manual' }).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not up: ${url}`);
}
