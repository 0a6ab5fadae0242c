#!/usr/bin/env bash
# Builds the container image and runs it as a deployment with two instances would: two containers
# on one PostgreSQL database, one Redis and one S3 bucket. A buyer registers and pays through the
# sandbox checkout on one, and the other shows the paid order; then both get SIGTERM and must
# exit 0 within the grace. Prints the image's size and how long each part took.
#
# Needs root, a running Docker daemon (containers use the host's network), debootstrap, curl, jq,
# psql, PostgreSQL at 127.0.0.1:5432 (trust auth) and Redis at 127.0.0.1:6379, and `npm ci` done.
# BASE=node:24-bookworm-slim takes that image instead of making till-node24-base (and
# RUNTIME_BASE=debian:bookworm-slim instead of till-bookworm-minbase under the server).
set -euo pipefail
cd "$(dirname "$0")/.."
export DOCKER_BUILDKIT=0
# The project's own Node 24 (node_modules/.bin) for the helpers below.
export PATH="$PWD/node_modules/.bin:$PATH"

IMAGE=${IMAGE:-till:check}
BASE=${BASE:-till-node24-base}
if [ "$BASE" = till-node24-base ]; then RUNTIME_BASE=${RUNTIME_BASE:-till-bookworm-minbase}; fi
RUNTIME_BASE=${RUNTIME_BASE:-debian:bookworm-slim}
GRACE_MS=3000
PG=postgres://postgres@127.0.0.1:5432
run=$(date +%s)-$$
db="till_image_check_${run//-/_}"
a="till-check-a-$run"
b="till-check-b-$run"
work=$(mktemp -d)
t0=$(date +%s)
step() { echo "image-check: $* ($(($(date +%s) - t0)) s)"; }

s3pid=
cleanup() {
  for c in "$a" "$b"; do
    if docker container inspect "$c" >/dev/null 2>&1; then
      [ "${keep_logs:-}" ] && { echo "--- $c ---"; docker logs --tail 40 "$c" 2>&1; }
      docker rm -f "$c" >/dev/null 2>&1 || true
    fi
  done
  [ -n "$s3pid" ] && kill "$s3pid" 2>/dev/null || true
  psql -q "$PG/test" -c "drop database if exists $db" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "image-check: FAILED: $*" >&2
  keep_logs=1
  exit 1
}

# compose.yaml: valid with every secret given, refused with one missing.
if command -v docker-compose >/dev/null; then
  : >"$work/empty.env" # not the checkout's own .env, if it has one
  env -i PATH="$PATH" TILL_DOMAIN=till.example.test SMTP_URL=smtp://mail.example.test:587 POSTGRES_PASSWORD=p \
    REDIS_PASSWORD=r S3_ACCESS_KEY=a S3_SECRET_KEY=s SIGNING_SECRET="$(printf 's%.0s' $(seq 32))" \
    TOTP_KEY="$(printf 't%.0s' $(seq 32))" docker-compose -f compose.yaml --env-file "$work/empty.env" config -q ||
    fail "compose.yaml is not valid"
  if env -i PATH="$PATH" docker-compose -f compose.yaml --env-file "$work/empty.env" config -q 2>/dev/null; then
    fail "compose.yaml started without its secrets"
  fi
  step "compose.yaml valid, and refused without its secrets"
fi

if [ "$BASE" = till-node24-base ]; then bash scripts/image-base.sh; fi
step "bases $BASE and $RUNTIME_BASE ready"
# Earlier builds' untagged images, once a day old: what repeated runs would otherwise pile up.
docker image prune -f --filter until=24h >/dev/null
docker build --force-rm --network host --build-arg "BASE=$BASE" --build-arg "RUNTIME_BASE=$RUNTIME_BASE" \
  -t "$IMAGE" . >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log"; fail "docker build"; }
size=$(docker image inspect -f '{{.Size}}' "$IMAGE")
step "built $IMAGE: $((size / 1000000)) MB (goal: under 250 MB)"

# Two free ports on this machine, and one for the S3 store: below the range for outgoing connections,
# whose ports the suites' connections running beside this check can take (packages/test-support/src/ports.ts).
read -r port_a port_b port_s3 < <(tsx -e '
  import { portForProcess } from "./packages/test-support/src/ports.ts";
  void Promise.all([portForProcess(), portForProcess(), portForProcess()]).then((p) => console.log(p.join(" ")));')

# A fresh database, and the test suites' S3-compatible server (s3rver) with one bucket.
psql -q "$PG/test" -c "create database $db" >/dev/null
mkdir -p "$work/s3"
node --input-type=module -e "
  import S3rver from 's3rver';
  await new S3rver({ address: '127.0.0.1', port: $port_s3, silent: true, directory: '$work/s3',
    configureBuckets: [{ name: 'till' }] }).run();
  console.log('s3 ready');" >"$work/s3.log" 2>&1 &
s3pid=$!
for _ in $(seq 1 100); do grep -q 's3 ready' "$work/s3.log" && break; sleep 0.1; done
grep -q 's3 ready' "$work/s3.log" || { cat "$work/s3.log"; fail "the S3 store did not start"; }

secret=$(head -c 32 /dev/urandom | base64 | tr -d '/+=' | head -c 40)
start() { # name port
  # development: the sandbox checkout and its demo products exist only outside production.
  # Every client here is 127.0.0.1 and the machine's Redis keeps the per-address budgets of every
  # other run on it (the test suites' too): those budgets would stop the check, not an attacker.
  docker run -d --name "$1" --network host \
    -e NODE_ENV=development -e HOST=127.0.0.1 -e PORT="$2" -e LOG_LEVEL=warn \
    -e DATABASE_URL="$PG/$db" -e REDIS_URL=redis://127.0.0.1:6379 \
    -e RATE_REGISTER_PER_IP=100000 -e RATE_LOGIN_PER_IP=100000 \
    -e RATE_MAIL_PER_IP=100000 -e RATE_MAIL_PER_ADDRESS=100000 \
    -e STORAGE_URL="s3://till?endpoint=http%3A%2F%2F127.0.0.1%3A$port_s3&region=us-east-1" \
    -e AWS_ACCESS_KEY_ID=S3RVER -e AWS_SECRET_ACCESS_KEY=S3RVER \
    -e SIGNING_SECRET="$secret" -e PUBLIC_URL="http://127.0.0.1:$port_a" \
    -e SHUTDOWN_GRACE_MS=$GRACE_MS "$IMAGE" >/dev/null
}
# Both at once on the empty database: the migrations and the demo data must still happen once.
start "$a" "$port_a"
start "$b" "$port_b"

# Ready (GET /api/ready) and healthy by the image's own HEALTHCHECK, within 90 s.
for _ in $(seq 1 180); do
  ready=0
  for c in "$a" "$b"; do
    [ "$(docker inspect -f '{{.State.Status}}' "$c")" = running ] || fail "$c stopped at start"
    [ "$(docker inspect -f '{{.State.Health.Status}}' "$c")" = healthy ] && ready=$((ready + 1))
  done
  [ $ready = 2 ] && break
  sleep 0.5
done
[ $ready = 2 ] || fail "the containers were not healthy within 90 s"
for port in "$port_a" "$port_b"; do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/ready")" = 200 ] || fail "port $port not ready"
done
[ "$(docker exec "$a" id -un)" = till ] || fail "the server does not run as the user till"
step "both containers healthy and ready"

call() { # port path json
  curl -sS -X POST -H 'content-type: application/json' --data "$3" "http://127.0.0.1:$1$2"
}
expect() { # jq-filter json what
  echo "$2" | jq -e "$1" >/dev/null || fail "$3: $2"
}

# Register and check out on A; pay on the sandbox's page on A; read the order on B.
email="buyer.$run@example.test"
reg=$(call "$port_a" /api/register "{\"email\":\"$email\",\"password\":\"a long, uncommon passphrase\",\"name\":\"Buyer\",\"lang\":\"en\"}")
expect '.code == 900 and (.token | length > 0)' "$reg" "register on A"
token=$(echo "$reg" | jq -r .token)
checkout=$(call "$port_a" /api/store/doCheckout "{\"token\":\"$token\",\"products\":\"credits-100\",\"provider\":\"default\"}")
expect '.code == 900 and .data.order.status == "pending"' "$checkout" "doCheckout on A"
iden=$(echo "$checkout" | jq -r .data.order.iden)
page=$(echo "$checkout" | jq -r .data.payment.url)
sig=$(echo "$page" | sed -n 's/.*[?&]sig=\([^&]*\).*/\1/p')
[ "$(curl -s -o /dev/null -w '%{http_code}' "$page")" = 200 ] || fail "the sandbox page $page"
paid=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' --data-urlencode "sig=$sig" --data "action=pay" \
  "http://127.0.0.1:$port_a/api/pay/default/$iden")
[ "${paid%% *}" = 303 ] || fail "paying on the sandbox page answered $paid"
orders=$(call "$port_b" /api/store/orders "{\"token\":\"$token\"}")
expect ".code == 900 and .data.total == 1 and .data.orders[0].iden == \"$iden\" and .data.orders[0].status == \"paid\"" \
  "$orders" "the order on B"
credits=$(call "$port_b" /api/store/credits "{\"token\":\"$token\",\"page\":1,\"pageSize\":10}")
expect '.code == 900 and .data.balance == 100' "$credits" "the credits on B"
step "registered, bought and paid on A; B shows order $iden paid and 100 credits"

# SIGTERM to both: each drains and exits 0 within the grace (plus the 5 s margin to close).
docker kill --signal=SIGTERM "$a" "$b" >/dev/null
limit=$((GRACE_MS / 1000 + 5))
for c in "$a" "$b"; do
  code=$(timeout "$limit" docker wait "$c") || fail "$c still running $limit s after SIGTERM"
  [ "$code" = 0 ] || fail "$c exited $code after SIGTERM"
done
step "both exited 0 after SIGTERM"
echo "image-check: passed: image $((size / 1000000)) MB, $(($(date +%s) - t0)) s"
