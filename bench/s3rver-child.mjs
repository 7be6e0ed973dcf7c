/**
 * The body of the local S3-protocol server (bench/s3-server.ts starts it):
 * s3rver on 127.0.0.1 and the port given (0: a free one), its objects in
 * the folder given, the buckets given created. Prints `READY <port>` once it listens; stops on
 * SIGTERM.
 *
 *   node --openssl-legacy-provider bench/s3rver-child.mjs DIR PORT BUCKET...
 *
 * Plain JavaScript, so that node runs it without tsx, which took half of its CPU to start (0.5 of
 * about 1 CPU-second): the tests start it some thirty times a run.
 */
import process from 'node:process';
import S3rver from 's3rver';

const [directory, port, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name, configs: [] })),
});
const listening = await server.run();
process.stdout.write(`READY ${listening.port}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
