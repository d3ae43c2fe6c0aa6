// @ts-check
// The shapes the dashboard modules share, for the type check only (npm run typecheck:dashboard): the
// public API's types come from the generated client types (client/src/api-types.ts), the operator API's
// from ../operator-api-types.ts, both generated from the OpenAPI document (npm run generate:client):
// no answer's shape is written here, only what the page itself composes.

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
 * The operator API's schemas (../operator-api-types.ts, generated from the same document), and the ones
 * several modules share.
 * @typedef {import('../operator-api-types.js').components['schemas']} OperatorSchemas
 * @typedef {OperatorSchemas['OperatorStage']} OperatorStage archived ones included, with requiresReason
 * @typedef {OperatorSchemas['OperatorPipeline']} OperatorPipeline
 * @typedef {OperatorSchemas['CustomFieldDefinition']} CustomFieldDefinition a custom field of leads or clients
 * @typedef {OperatorSchemas['OperatorClient']} OperatorClient
 * @typedef {OperatorSchemas['ClientSummary']} ClientSummary one row of the client list
 * @typedef {OperatorSchemas['Business']} Business its `locale` is the one its figures are drawn in (locale-format.js)
 */

/**
 * The `data` of an operator operation's success answer, by its operationId (for answers the document
 * does not name): `Answer<'listCountries'>`.
 * @template {keyof import('../operator-api-types.js').operations} Id
 * @typedef {import('../operator-api-types.js').Answer<Id>} Answer
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
 * @property {OperatorSchemas['LeadSource'][]} sources
 * @property {OperatorSchemas['Tag'][]} tags
 * @property {OperatorSchemas['Member'][]} members
 * @property {CustomFieldDefinition[]} fields the lead custom fields
 */

export {};
