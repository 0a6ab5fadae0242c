# Till's server with the web app it serves. Build: docker build -t till .
# The build's base is any Node 24 image on Debian bookworm (with npm); the image itself is a plain
# Debian bookworm with that image's node binary and nothing else of it. scripts/image-base.sh makes both
# where no image registry is reachable (docker build --build-arg BASE=till-node24-base
# --build-arg RUNTIME_BASE=till-bookworm-minbase ...). docs/deploy.md tells more.
ARG BASE=node:24-bookworm-slim
ARG RUNTIME_BASE=debian:bookworm-slim

# Everything the build needs, then the build: protocol, client and server (tsc) and the web app (Vite).
FROM ${BASE} AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/client/package.json packages/client/
COPY packages/server/package.json packages/server/
COPY packages/test-support/package.json packages/test-support/
COPY apps/web/package.json apps/web/
# No install scripts: every native part (SQLite, argon2, sharp, esbuild, rolldown) comes prebuilt in
# its package, and better-sqlite3's would call node-gyp, which needs a compiler the base lacks.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# What the server needs at run time, and nothing else: its own and the protocol's dependencies (not
# their development ones, so not @till/test-support).
# Typings, source maps, the SQLite source and other platforms' prebuilt add-ons are not needed to run.
FROM ${BASE} AS production-deps
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
# The build stage's npm cache already holds every package: nothing is downloaded twice (and while
# the lockfile stays the same, this stage is reused from the last build).
COPY --from=build /root/.npm/_cacache /root/.npm/_cacache
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/client/package.json packages/client/
COPY packages/server/package.json packages/server/
COPY packages/test-support/package.json packages/test-support/
COPY apps/web/package.json apps/web/
# Also left out: TypeScript sources, Markdown (documentation, changelogs), packages' tests, examples,
# benchmarks and CI files, and their tool configurations. Licences and notices stay. (Folders named
# doc or docs stay too: yaml keeps code in one.)
RUN npm ci --omit=dev --workspace=@till/server --workspace=@till/protocol --ignore-scripts --prefer-offline --no-audit --no-fund \
 && find node_modules \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -type f -delete \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
 && find node_modules/better-sqlite3/prebuilds -type f ! -name "linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/').node" -delete \
 && find node_modules -type d \( -name test -o -name tests -o -name __tests__ -o -name example -o -name examples \
      -o -name benchmark -o -name benchmarks -o -name .github \) -prune -exec rm -rf {} + \
 && find node_modules -type f \( -name '*.md' -o -name '*.markdown' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \
      -o -name '*.tsbuildinfo' -o -name 'tsconfig*.json' -o -name '*.flow' -o -name '.npmignore' -o -name '.eslintrc*' \
      -o -name '.prettierrc*' -o -name '.editorconfig' -o -name '.travis.yml' \) ! -iname 'licen[cs]e*' ! -iname 'notice*' -delete \
 && npm cache clean --force

# The node binary without its symbol tables and debugging sections (127 MB of which 18 MB are those):
# they serve a debugger, not the server. binutils only here, for strip.
FROM ${BASE} AS node
RUN apt-get update -q && apt-get install -y -q --no-install-recommends binutils >/dev/null \
 && cp "$(command -v node)" /node && strip --strip-all /node && /node --version

FROM ${RUNTIME_BASE}
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/till.db \
    STORAGE_URL=file:/data/uploads \
    BACKUP_URL=file:/data/backups
# A user of its own; /data is where SQLite, uploaded files and SQLite's backups go unless DATABASE_URL,
# STORAGE_URL and BACKUP_URL point elsewhere (mount a volume there).
COPY --from=node /node /usr/local/bin/node
RUN useradd --system --user-group --uid 10001 --home-dir /app --no-create-home --shell /usr/sbin/nologin till \
 && mkdir /data && chown till:till /data
WORKDIR /app
COPY --from=production-deps /app/package.json ./
COPY --from=production-deps /app/node_modules node_modules
COPY --from=build /app/packages/protocol/package.json packages/protocol/
COPY --from=build /app/packages/protocol/dist packages/protocol/dist
# The server's dist holds the migrations (db/migrations), run at start under a lock.
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
USER till
EXPOSE 3000
# Liveness: 200 while the database answers (GET /api/health); /api/ready is for a load balancer.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and takes SIGTERM itself: the server drains (SHUTDOWN_GRACE_MS, 10 s, plus up to 5 s
# to close) and exits 0, so give `docker stop` a longer time (-t 20, compose stop_grace_period: 20s).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=1", "packages/server/dist/main.js"]
