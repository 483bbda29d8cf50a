# Self-hosting image for the web app and the worker (same image, different command).
#   docker compose up -d --build        (see docker-compose.yml)
# The app runs with `npm start` = `node --conditions=react-server --import tsx scripts/start.ts`: it applies the Prisma migrations
# (WebAssembly schema engine, no native engine needed), creates the first administrator,
# then starts Next.js through scripts/next-server.mjs. TypeScript sources are run by tsx
# at run time, so the runtime stage keeps the sources and node_modules.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- deps: install exactly what package-lock.json says ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# A mirror for slow networks, e.g. --build-arg NPM_REGISTRY=https://registry.npmmirror.com/
ARG NPM_REGISTRY=https://registry.npmjs.org/
COPY package.json package-lock.json ./
# --ignore-scripts: as on the development machines (npm 11 runs no install scripts). Native
# packages ship prebuilt binaries as optional dependencies; Prisma's postinstall would only
# try to download a native engine the app does not use.
# `npm install` (with the lock file) rather than `npm ci`: the lock written by npm 11 lacks
# other platforms' optional packages, which `npm ci` refuses (npm/cli#4828, #8320).
RUN npm install --ignore-scripts --no-audit --no-fund --registry="${NPM_REGISTRY}"

# ---- build: generate the Prisma client, then next build ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# scripts/prisma-generate.sh (into lib/generated/prisma), then next build.
RUN npm run build

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# LISTEN_HOST: the server listens on every interface (the health check uses 127.0.0.1).
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    PORT=3000 \
    LISTEN_HOST=0.0.0.0 \
    DATA_DIR=/app/data

# The official node image has an unprivileged `node` user (uid 1000). Everything the app
# writes (.next/cache, the data folder) belongs to it. /app/data exists in the image, owned
# by node, so a new named volume mounted there starts with that owner.
COPY --from=build --chown=node:node /app ./
RUN mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 3000
VOLUME ["/app/data"]

HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/site-config/site-info').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["npm", "start"]
