import type { Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { idColumn } from '../migration-parts/id-column.js';

/**
 * Leads (docs/leads.md): the leads themselves, their tags and activity, the contacts they create,
 * and the business's lead configuration. Configuration is one JSON document per business and kind, as
 * pipelines and client custom fields are; leads keep the configuration's ids and answer current names.
 * Columns exist for what a list filters, sorts or looks up; everything else is the `data` document.
 */
export function leadsMigration(kind: StoreKind) {
  const id = idColumn(kind);

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // IANA name; null means the default of the business's country (docs/decisions.md "Lead configuration (operator side)").
      await db.schema.alterTable('businesses').addColumn('time_zone', 'text').execute();

      // One row per business and kind (sources, tags, members, customFields), each a JSON array: a PUT of
      // one kind replaces that row alone, so two operators editing different kinds lose nothing.
      await db.schema
        .createTable('lead_settings')
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('doc', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_settings_pk', ['business_pk', 'kind'])
        .execute();

      await id(db.schema.createTable('contacts'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('contact_id', 'text', (c) => c.notNull().unique())
        .addColumn('client_pk', 'bigint', (c) => c.references('clients.id').onDelete('set null'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('contacts_business').on('contacts').columns(['business_pk', 'contact_id']).execute();

      await id(db.schema.createTable('leads'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('lead_id', 'text', (c) => c.notNull().unique())
        // The idempotency key of create; null for dashboard leads (NULLs never collide).
        .addColumn('external_id', 'text')
        .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('pipeline_id', 'text', (c) => c.notNull())
        .addColumn('stage_id', 'text', (c) => c.notNull())
        .addColumn('lead_source_key', 'text')
        .addColumn('assignee_id', 'text')
        .addColumn('follow_up_date', 'text')
        // For sorting and ranges only; the exact amount is in `data`.
        .addColumn('budget_amount', 'double precision')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('contact_id', 'text', (c) => c.notNull())
        .addColumn('contact_name', 'text', (c) => c.notNull())
        .addColumn('contact_email', 'text')
        .addColumn('contact_phone', 'text')
        .addColumn('customer_name', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('details', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        // The normalised create request, compared on a retry (docs/leads.md "Create").
        .addColumn('create_request', 'text')
        // Bumped by every write: a PATCH applies only to the version it read (no lost update).
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('leads_business_external_id')
        .unique()
        .on('leads')
        .columns(['business_pk', 'external_id'])
        .execute();

      await db.schema
        .createTable('lead_tags')
        .addColumn('lead_pk', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull())
        .addColumn('tag_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_tags_pk', ['lead_pk', 'tag_id'])
        .execute();

      await id(db.schema.createTable('lead_activities'))
        .addColumn('lead_pk', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('activity_id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        // body, fromStage/toStage/fromPipeline/toPipeline (ids), reasons (keys): JSON.
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_activities_lead').on('lead_activities').columns(['lead_pk', 'id']).execute();

      // A comment or note batch sent with a clientRequestId, so that a retried PATCH appends nothing twice.
      await db.schema
        .createTable('lead_request_ids')
        .addColumn('lead_pk', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('client_request_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_request_ids_pk', ['lead_pk', 'kind', 'client_request_id'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('the leads schema is not reversible');
    },
  };
}
