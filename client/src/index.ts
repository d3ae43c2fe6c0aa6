export {
  createClient,
  type CreateClientOptions,
  type CrmkitClient,
  type KeyOptions,
  type SecretOptions,
} from './client.js';
export { CrmkitError, CrmkitNetworkError } from './errors.js';
export type { LeadListQuery, LeadSortField, LeadStatus, LeadSyncPage, LeadSyncQuery } from './lead-list.js';
export type { RetryOptions } from './transport.js';
export type * from './api-types.js';
