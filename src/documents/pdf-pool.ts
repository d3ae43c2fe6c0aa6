import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { InvoiceDocumentInput } from './invoice-document.types.js';

/**
 * Invoice PDFs render in worker threads (piscina), never on the event loop that answers requests: a
 * 500-item invoice takes about a second of CPU, which would stall every other request for that long.
 * Workers stay alive (minThreads = maxThreads) so their parsed fonts stay warm.
 */
export interface PdfPool {
  render(input: InvoiceDocumentInput): Promise<Buffer>;
  close(): Promise<void>;
}

export interface PdfPoolOptions {
  /** Worker threads; default the machine's parallelism. */
  threads?: number;
}

/** Under tsx or vitest this module is TypeScript source, and so is its worker, which then needs tsx's loader. */
function workerFile(): { filename: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url);
  const fromSource = self.endsWith('.ts');
  return {
    filename: self.replace(/pdf-pool\.(ts|js)$/, `invoice-pdf.worker.${fromSource ? 'ts' : 'js'}`),
    execArgv: fromSource ? ['--import', 'tsx'] : [],
  };
}

export function createPdfPool(options: PdfPoolOptions = {}): PdfPool {
  const threads = options.threads ?? availableParallelism();
  const { filename, execArgv } = workerFile();
  const pool = new Piscina({ filename, execArgv, minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
  return {
    async render(input) {
      const bytes = (await pool.run(input)) as Uint8Array;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    close: () => pool.destroy(),
  };
}
