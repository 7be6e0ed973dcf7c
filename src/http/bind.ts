/** Binding a server, shared by the preview and the sidecar. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `bind:port`; a busy port or a bad address is a message, not a throw. */
export function bindServer(
  server: Server,
  port: number,
  bind: string,
): Promise<{ ok: true; port: number } | { ok: false; message: string }> {
  return new Promise((done) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? 'is in use; choose another with --port (0 picks a free one)'
          : `cannot be opened (${error.message})`;
      done({ ok: false, message: `${bind}:${port} ${reason}.` });
    });
    server.listen(port, bind, () =>
      done({ ok: true, port: (server.address() as AddressInfo).port }),
    );
  });
}
