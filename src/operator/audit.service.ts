import type { FastifyRequest } from 'fastify';
import type { AuditEntry } from '../storage/records.js';
import type { Store } from '../storage/store.js';

/**
 * Who did what to which business, for every operator action that changes something. The line is data: the
 * route makes it here and hands it down, and the store writes it in the change's own transaction
 * (src/storage/audit-lines.ts), so no change is kept without its line.
 */
export class AuditService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** The line a change writes in its own transaction (the store writes it with the change). */
  entryOf(
    request: FastifyRequest,
    action: string,
    businessUrlKey: string | null,
    detail: Record<string, unknown> = {},
  ): AuditEntry {
    return { at: this.now(), operatorEmail: request.operator?.email ?? '', action, businessUrlKey, detail };
  }

  async list(page: number, pageSize: number) {
    const entries = await this.store.data.listAudit(pageSize + 1, (page - 1) * pageSize);
    const hasMore = entries.length > pageSize;
    return {
      page,
      pageSize,
      hasMore,
      entries: entries.slice(0, pageSize).map((e) => ({
        at: new Date(e.at).toISOString(),
        operator: e.operatorEmail,
        action: e.action,
        business: e.businessUrlKey,
        detail: e.detail,
      })),
    };
  }
}
