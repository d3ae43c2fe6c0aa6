import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Answers at least this long are compressed for a caller that accepts br or gzip; shorter ones go as
 * they are and pay only the plugin's checks. Above every one-record answer (a client 0.9 KB, an invoice
 * of two items 1.5 KB): compressing one through the plugin costs 0.4-0.7 ms of CPU, ten times a GET
 * client, to save two or three TCP segments that travel in the first window anyway. Lists, the
 * document, scripts and styles are above it (docs/decisions.md "Compression").
 */
export const COMPRESS_THRESHOLD_BYTES = 4096;

/**
 * br or gzip per Accept-Encoding for every answer of a compressible type (JSON, HTML, JavaScript, CSS,
 * CSV, text) from this size up; PDFs, already compressed inside, go as they are. Routes registered after
 * this call get the hook, so it comes before them; an operation marked `compress: false` (one record, whose
 * answer is below the threshold in practice) gets none (src/http/operations.ts), sparing its requests the
 * plugin's per-answer checks (docs/decisions.md "Compression off for one-record reads").
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    // Brotli, then gzip, the same on every Node version (zstd, which the plugin would prefer on Node 22.15+,
    // is not offered: every browser that sends it sends br too).
    encodings: ['br', 'gzip'],
    // Request bodies are read as sent: a compressed body would slip past the body limit's meaning (the
    // bytes on the wire) and add a decoder to the hostile-input surface, for no caller that needs it.
    globalDecompression: false,
  });
}
