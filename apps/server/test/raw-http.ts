/** Raw HTTP over a real loopback socket, for requests no HTTP client would send. */
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (rather than the timeout below). */
  closed: boolean;
}

/** Writes `bytes` to 127.0.0.1:`port` and reads until the server closes (at most `timeoutMs`). */
export function rawExchange(port: number, bytes: string | Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('end', () => (closed = true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') closed = true;
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body, closed });
    });
    socket.write(bytes);
  });
}
