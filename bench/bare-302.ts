/** The yardstick: a bare Fastify server that only answers 302. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/r/:code', async (_request, reply) => reply.status(302).header('location', 'https://shop.example.com/tea').send());
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
