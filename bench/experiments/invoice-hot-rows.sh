#!/bin/bash
# Which rows an invoice create holds through its commit bound PostgreSQL's creates of one business
# (docs/performance.md "POST invoice: the series lock gone, what holds creates now"). pgbench runs the
# create's settle statement (src/storage/invoices.store.ts POSTGRES_SETTLE, a fresh number each time)
# from 50 connections on a database that bench/experiments/compare.ts seeded, in variants:
#   locked   : with the old settle's series row lock and update (the invoice_settings row)
#   one      : every create for one client, as the bench's POST invoice (the client's balance row)
#   spread   : each create for one of the business's clients at random
#   no rollup: invoices_rollups_insert disabled; slots=N: its rollup rows spread over N slots (4 in migration 028)
# The database is changed (invoices added, the trigger replaced and put back): use a bench copy of your own.
#   bench/experiments/invoice-hot-rows.sh postgres://postgres@127.0.0.1:5432/h_mine_bench_a
set -euo pipefail
DB=$1
SECONDS_EACH=${HOT_ROWS_SECONDS:-8}
q() { psql "$DB" -Atqc "$1"; }
BUSINESS=$(q "select b.url_key from businesses b order by (select count(*) from invoices i where i.business_pk = b.id) desc limit 1")
PK=$(q "select id from businesses where url_key = '$BUSINESS'")
CLIENT=$(q "select client_id from invoices where business_pk = $PK group by 1 order by count(*) desc limit 1")
TEMPLATE=$(q "select min(id) from invoices where business_pk = $PK")
q "drop table if exists x_clients; create table x_clients as select row_number() over (order by client_id) - 1 as n, client_id
   from (select distinct client_id from invoices where business_pk = $PK) c; create unique index on x_clients (n)"
COUNT=$(q "select count(*) from x_clients")
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

# $1 file, $2 the client expression, $3 1: take and move the series row as the old settle did
script() {
  local lock=$3
  {
    echo "\\set k random(0, $((COUNT - 1)))"
    echo "with t as (select content, create_request from invoices where id = $TEMPLATE),"
    [ "$lock" = 1 ] && echo "s as (select business_pk from invoice_settings where business_pk = $PK for update),"
    echo "inv as (insert into invoices (business_pk, invoice_id, invoice_number, client_id, status, currency, total_minor,
      paid_minor, invoice_date, share_token, content, create_request, created_at, updated_at)
    select b.id, 'x' || md5(random()::text), 'X-' || md5(random()::text), $2, 'UNPAID', 'INR', 1000, 0,
      (extract(epoch from now()) * 1000)::int8, md5(random()::text), t.content, t.create_request,
      (extract(epoch from now()) * 1000)::int8, (extract(epoch from now()) * 1000)::int8
    from businesses b, t $([ "$lock" = 1 ] && echo ', s') where b.url_key = '$BUSINESS'
    on conflict (business_pk, invoice_number) do nothing returning business_pk, client_id, invoice_number),"
    [ "$lock" = 1 ] &&
      echo "series as (update invoice_settings set last_number = (select invoice_number from inv) where business_pk = $PK),"
    echo "balance as (insert into client_balances (client_pk, member, amount_e4)
    select c.id, 'invoice', 1000 from clients c
    where c.business_pk = (select business_pk from inv) and c.client_id = (select client_id from inv)
    on conflict (client_pk, member) do update set amount_e4 = client_balances.amount_e4 + excluded.amount_e4)
  select count(*) from inv;"
  } >"$DIR/$1.sql"
}
script one "'$CLIENT'" 0
script spread "(select client_id from x_clients where n = :k)" 0
script one_locked "'$CLIENT'" 1
script spread_locked "(select client_id from x_clients where n = :k)" 1

run() {
  printf '%-34s ' "$1${2:+ ($2)}"
  pgbench "$DB" -n -c 50 -j 2 -T "$SECONDS_EACH" -M prepared -f "$DIR/$1.sql" 2>&1 | grep -E '^tps' | sed 's/ (without.*//'
}
slots() {
  local body
  body=$(q "select prosrc from pg_proc where proname = 'invoices_rollups_insert'" | sed -E "s/i\.id % [0-9]+/i.id % $1/g")
  psql "$DB" -qc "create or replace function invoices_rollups_insert() returns trigger language plpgsql as \$fn\$${body}\$fn\$"
}
trap 'slots 4; psql "$DB" -qc "alter table invoices enable trigger invoices_rollups_insert"; rm -rf "$DIR"' EXIT

echo "business $BUSINESS, $COUNT clients, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M) UTC"
for v in one_locked one spread_locked spread; do run "$v"; done
psql "$DB" -qc "alter table invoices disable trigger invoices_rollups_insert"
for v in one spread; do run "$v" 'no rollup'; done
psql "$DB" -qc "alter table invoices enable trigger invoices_rollups_insert"
for n in 16 64; do
  slots "$n"
  for v in one spread; do run "$v" "slots=$n"; done
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
