/**
 * Sending a CSV file. The encoder itself (cells, quoting, formula defusing, column names) is the
 * one in packages/shared/src/csv.ts, shared with the console's own exports.
 */
import type { FastifyReply } from 'fastify';

/** Answers with a CSV file to download (never cached: exports hold personal data). */
export function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
