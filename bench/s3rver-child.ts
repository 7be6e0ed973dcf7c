/**
 * The body of the local S3-protocol server (bench/s3-server.ts starts it):
 * s3rver on 127.0.0.1 and the port given (0: a free one), its objects in
 * the folder given, the buckets given created. Prints `READY <port>` once it listens; stops on
 * SIGTERM.
 *
 *   node --openssl-legacy-provider --import tsx bench/s3rver-child.ts DIR PORT BUCKET...
 */
import S3rver from 's3rver';

const [directory, port, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory: directory!,
  configureBuckets: buckets.map((name) => ({ name, configs: [] })),
});
const listening = await server.run();
process.stdout.write(`READY ${listening.port}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
