// @ts-check
// The shapes the dashboard modules share, for the type check only (npm run typecheck:dashboard): the
// API's own types come from the generated client types (client/src/api-types.ts, made from the
// OpenAPI document); the few the client does not carry are written here, naming the schema they follow.

/**
 * @typedef {import('../../../../client/src/api-types.js').components['schemas']} Schemas
 * @typedef {Schemas['Lead']} Lead
 * @typedef {Schemas['Invoice']} Invoice
 * @typedef {Schemas['Payment']} Payment
 * @typedef {Schemas['PipelineConfiguration']} PipelineConfiguration
 * @typedef {Schemas['Pipeline']} Pipeline
 * @typedef {Schemas['Stage']} Stage
 * @typedef {Schemas['StageReason']} StageReason
 */

/**
 * The operator API's pipelines (the document's OperatorPipeline): archived ones included, and each stage
 * with requiresReason.
 * @typedef {Stage & { requiresReason?: boolean }} OperatorStage
 * @typedef {Omit<Pipeline, 'stages'> & { stages: OperatorStage[] }} OperatorPipeline
 */

/**
 * A custom field of leads or clients (the document's CustomFieldDefinition).
 * @typedef {{ id: string, name: string, type: 'TEXT' | 'NUMBER' | 'DATE' | 'BOOLEAN' | 'SELECT',
 *   options: string[] | null, isArchived: boolean }} CustomFieldDefinition
 */

/**
 * A client as the operator API answers it (the document's OperatorClient: a Client whose clientId is null
 * when it was made in the dashboard, with its status), and one row of the client list (ClientSummary).
 * @typedef {'active' | 'archived' | 'deleted'} ClientStatus
 * @typedef {Omit<Schemas['Client'], 'clientId'> & { clientId: string | null, status: ClientStatus }} OperatorClient
 * @typedef {{ clientId: string | null, name: string | null, email: string | null, phone: string | null,
 *   city: string | null, country: string | null, status: ClientStatus, source: string, createdAt: string,
 *   updatedAt: string }} ClientSummary
 */

/**
 * A business as the operator API answers it (the document's `Business`); `locale` is the one its figures are
 * drawn in (locale-format.js).
 * @typedef {{ urlKey: string, name: string, country: string, currency: string, customFieldsEnabled: boolean,
 *   timeZone: string, locale: string, isArchived: boolean, archivedAt: string | null }} Business
 */

/**
 * What app.js hands every view's render(main, ctx).
 * @typedef {object} ViewContext
 * @property {Business | null} business the business picked in the header, if any
 * @property {Business[]} businesses
 * @property {string | null} param the route's parameter (#/leads/<leadId> → the leadId)
 * @property {() => Promise<void>} refreshBusinesses
 * @property {() => Promise<Business[]>} reloadBusinesses
 * @property {(urlKey: string) => void} selectBusiness
 * @property {(guard: (() => boolean) | null) => void} setLeaveGuard
 * @property {(selector: string) => void} focusAfterRender a selector (within the section) to focus once it renders again
 */

/**
 * The lead settings and pipelines the lead pages read (lead-config.js loadLeadConfig).
 * @typedef {object} LeadConfig
 * @property {OperatorPipeline[]} pipelines the operator's pipelines
 * @property {StageReason[]} stageReasons
 * @property {{ key: string, label: string, isArchived?: boolean }[]} sources
 * @property {{ id: string, name: string, isArchived?: boolean }[]} tags
 * @property {{ email: string, name: string, isArchived?: boolean }[]} members
 * @property {CustomFieldDefinition[]} fields the lead custom fields
 */

export {};
