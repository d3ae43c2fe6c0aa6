#!/bin/bash
# Which rows a payment holds through its commit bound PostgreSQL's payments of one business
# (docs/performance.md "POST payment: where its CPU went"). pgbench runs a payment's transaction as
# src/storage/invoices.store.ts writes it (the locked read POSTGRES_INVOICE_LOCK, then POSTGRES_APPLY: the
# client's balance, the invoice's row, the payment) on one of the business's open invoices at random,
# 1 rupee each, from 50 connections, on a database that bench/experiments/compare.ts seeded with the
# invoices' scenarios (1,000 open invoices over 1,000 clients), and beside it a create spread over the
# clients (invoice-hot-rows.sh's "spread"), in variants:
#   slots=4   : migration 028's rollups as they are (4 slots per key on PostgreSQL)
#   slots=N   : the three invoice rollup trigger functions' modulus replaced by N (put back to 4 after)
#   no rollup : the payment's two rollup triggers (invoice update, payment insert) and the create's off
# The database is changed (payments and invoices added, triggers replaced and put back): a bench copy of your own.
#   bench/experiments/payment-hot-rows.sh postgres://postgres@127.0.0.1:5432/h_mine_a
set -euo pipefail
DB=$1
SECONDS_EACH=${HOT_ROWS_SECONDS:-8}
q() { psql "$DB" -Atqc "$1"; }
BUSINESS=$(q "select b.url_key from businesses b order by (select count(*) from invoices i where i.business_pk = b.id) desc limit 1")
PK=$(q "select id from businesses where url_key = '$BUSINESS'")
TEMPLATE=$(q "select min(id) from invoices where business_pk = $PK")
q "drop table if exists x_pay; create table x_pay as select row_number() over (order by id) - 1 as n, id, invoice_id,
   client_id from invoices where business_pk = $PK and invoice_number like 'SEED-%' and status <> 'CANCELED';
   create unique index on x_pay (n)"
q "drop table if exists x_clients; create table x_clients as select row_number() over (order by client_id) - 1 as n, client_id
   from (select distinct client_id from invoices where business_pk = $PK) c; create unique index on x_clients (n)"
INVOICES=$(q "select count(*) from x_pay")
CLIENTS=$(q "select count(*) from x_clients")
DIR=$(mktemp -d)
TRIGGERS="invoices_rollups_insert invoices_rollups_update invoice_payments_rollups_insert"

cat >"$DIR/payment.sql" <<SQL
\\set k random(0, $((INVOICES - 1)))
select id, invoice_id, client_id from x_pay where n = :k \\gset
begin;
select i.id, i.paid_minor from invoices i
  where i.business_pk = (select b.id from businesses b where b.url_key = '$BUSINESS') and i.invoice_id = :invoice_id
  for update of i;
with balance as (
    insert into client_balances (client_pk, member, amount_e4)
    select c.id, m.member, m.e4 from clients c cross join unnest(array['invoicePayment'], array[10000]::int8[]) as m(member, e4)
    where c.business_pk = $PK and c.client_id = :client_id
    on conflict (client_pk, member) do update set amount_e4 = client_balances.amount_e4 + excluded.amount_e4
  ),
  invoice as (
    update invoices set status = 'PARTIALLY_PAID', paid_minor = paid_minor + 100,
      updated_at = (extract(epoch from now()) * 1000)::int8 where id = :id returning id
  )
  insert into invoice_payments (invoice_pk, payment_id, settled_minor, removed, data, created_at)
  select invoice.id, md5(random()::text), 100, 0,
    json_build_object('amount', 1, 'tds', 0, 'transactionCharge', 0, 'paymentDate', to_char(now(), 'YYYY-MM-DD'),
      'paymentMethod', 'UPI', 'notes', null, 'refId', null, 'appId', null)::text,
    (extract(epoch from now()) * 1000)::int8 from invoice;
commit;
SQL

cat >"$DIR/create.sql" <<SQL
\\set k random(0, $((CLIENTS - 1)))
with t as (select content, create_request from invoices where id = $TEMPLATE),
inv as (insert into invoices (business_pk, invoice_id, invoice_number, client_id, status, currency, total_minor,
    paid_minor, invoice_date, share_token, content, create_request, created_at, updated_at)
  select b.id, 'x' || md5(random()::text), 'X-' || md5(random()::text), (select client_id from x_clients where n = :k),
    'UNPAID', 'INR', 1000, 0, (extract(epoch from now()) * 1000)::int8, md5(random()::text), t.content, t.create_request,
    (extract(epoch from now()) * 1000)::int8, (extract(epoch from now()) * 1000)::int8
  from businesses b, t where b.url_key = '$BUSINESS'
  on conflict (business_pk, invoice_number) do nothing returning business_pk, client_id),
balance as (insert into client_balances (client_pk, member, amount_e4)
  select c.id, 'invoice', 1000 from clients c
  where c.business_pk = (select business_pk from inv) and c.client_id = (select client_id from inv)
  on conflict (client_pk, member) do update set amount_e4 = client_balances.amount_e4 + excluded.amount_e4)
select count(*) from inv;
SQL

# Each run: pgbench's figures, then what its backends were waiting on, sampled every half second (the
# share of samples per wait event; "running" when none: on the CPU or ready to be).
run() {
  printf '%-26s ' "$1 ($2)"
  pgbench "$DB" -n -c 50 -j 2 -T "$SECONDS_EACH" -M prepared -f "$DIR/$1.sql" >"$DIR/out" 2>&1 &
  local bench=$! waits=''
  while kill -0 "$bench" 2>/dev/null; do
    waits+=$(q "select coalesce(wait_event_type || ':' || wait_event, 'running') from pg_stat_activity
      where datname = current_database() and application_name = 'pgbench' and state = 'active'")$'\n'
    sleep 0.5
  done
  wait "$bench" || true
  grep -E '^(tps|latency average)' "$DIR/out" | sed 's/ (without.*//' | tr '\n' ' '
  echo "$waits" | grep -v '^$' | sort | uniq -c | sort -rn | head -4 |
    awk -v total="$(echo "$waits" | grep -vc '^$')" '{ printf "%s %d%%  ", $2, 100 * $1 / total } END { print "" }'
}
slots() {
  local name body
  for name in $TRIGGERS; do
    body=$(q "select prosrc from pg_proc where proname = '$name'" | sed -E "s/(i\.id|p\.invoice_pk) % [0-9]+/\1 % $1/g")
    psql "$DB" -qc "create or replace function $name() returns trigger language plpgsql as \$fn\$${body}\$fn\$"
  done
}
triggers() {
  psql "$DB" -qc "alter table invoices $1 trigger invoices_rollups_insert, $1 trigger invoices_rollups_update"
  psql "$DB" -qc "alter table invoice_payments $1 trigger invoice_payments_rollups_insert"
}
trap 'slots 4; triggers enable; rm -rf "$DIR"' EXIT

echo "business $BUSINESS, $INVOICES open invoices, $CLIENTS clients, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M) UTC"
for round in $(seq "${HOT_ROWS_ROUNDS:-2}"); do
  for n in 4 16; do
    slots "$n"
    for v in payment create; do run "$v" "slots=$n"; done
  done
  slots 4
  triggers disable
  for v in payment create; do run "$v" 'no rollup'; done
  triggers enable
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
