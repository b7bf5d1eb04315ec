// Sends events through real shipper clients, unmodified, and exits once each has written them all:
//   node ship.mjs <baseUrl> <serviceId> <token> <events>
// pino-elasticsearch (the official @elastic/elasticsearch client's bulk helper) writes to the index
// node-pino; winston-loki (snappy-compressed protobuf) pushes streams labelled app=node-winston.
// Prints one line per client: "<client> <events written>".
import pino from 'pino';
import pinoElastic from 'pino-elasticsearch';
import winston from 'winston';
import LokiTransport from 'winston-loki';

const [base, serviceId, token, count] = process.argv.slice(2);
const n = Number(count);

async function viaPino() {
  const stream = pinoElastic({
    index: 'node-pino',
    node: base + '/elasticsearch',
    auth: { username: serviceId, password: token },
    esVersion: 8,
    opType: 'create',
    flushBytes: 64 * 1024,
  });
  let failed = null;
  stream.on('insertError', (e) => { failed = e; });
  stream.on('error', (e) => { failed = e; });
  const done = new Promise((resolve) => stream.on('insert', resolve));
  // Chartwell's tables take the text from "message" (pino's own name for it is "msg").
  const logger = pino({ level: 'info', messageKey: 'message' }, stream);
  for (let i = 0; i < n; i++) {
    logger.info({ order: i, shop: { region: i % 2 === 0 ? 'eu' : 'us' } }, `order ${i} placed`);
  }
  stream.end();
  const stats = await done;
  if (failed) throw new Error('pino-elasticsearch: ' + failed);
  console.log(`pino-elasticsearch ${stats.successful} failed ${stats.failed}`);
}

async function viaWinston() {
  let failed = null;
  const transport = new LokiTransport({
    host: base,
    basicAuth: `${serviceId}:${token}`,
    labels: { app: 'node-winston' },
    batching: true,
    interval: 1,
    onConnectionError: (e) => { failed = e; },
  });
  const logger = winston.createLogger({ level: 'info', transports: [transport] });
  for (let i = 0; i < n; i++) {
    logger.log({ level: i % 4 === 0 ? 'warn' : 'info', message: `job ${i} done` });
  }
  await transport.flush();
  logger.close();
  if (failed) throw new Error('winston-loki: ' + failed);
  console.log(`winston-loki ${n}`);
}

await viaPino();
await viaWinston();
