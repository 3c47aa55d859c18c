# syntax=docker/dockerfile:1
# Tandem's realtime server with the built client: one image for every instance.
#   docker build -t tandem .
#   docker run -p 8080:8080 -v tandem-data:/data tandem        (one instance, SQLite in /data)
# Several instances with Redis, PostgreSQL and a balancer: docker-compose.yml, docs/operations.md.

# Node 22: some dependencies (cookie, content-disposition) declare engines >= 22.
ARG NODE_VERSION=22

# ---- build: install everything, build the client and the server, then drop dev dependencies ----
FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /app
# The manifests alone first, so the install layer is reused until a dependency changes.
# The full image has python3, make and g++ in case better-sqlite3 must compile from source.
COPY package.json package-lock.json .npmrc ./
COPY shared/package.json shared/
COPY realtime-server/package.json realtime-server/
COPY client/package.json client/
RUN npm ci
COPY . .
RUN npm run build \
  && test -f client/dist/index.html \
  && test -f realtime-server/dist/main.js \
  && npm prune --omit=dev

# ---- runtime: the compiled server, production dependencies and the built client ----
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
WORKDIR /app
# The server is plain JavaScript (realtime-server/dist, @tandem/shared inlined by
# scripts/build-server.mjs), run by node alone, as `npm start` does: no TypeScript loader.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/realtime-server/package.json ./realtime-server/
COPY --from=build /app/realtime-server/dist ./realtime-server/dist
COPY --from=build /app/client/package.json ./client/
COPY --from=build /app/client/dist ./client/dist
# The code stays root-owned and read-only to the server; only /data is its to write
# (the SQLite file and the generated secret when DATABASE_URL is unset).
RUN mkdir -p /data && chown node:node /data
# glibc's allocator, told to return every block of 1 MiB or more to the system when it is freed:
# by default it raises that threshold after the first big free, and each libuv thread that hashed a
# password (scrypt, 16 MiB) kept those 16 MiB for good (docs/operations.md, "Memory and slow clients").
ENV DATA_DIR=/data PORT=8080 MALLOC_MMAP_THRESHOLD_=1048576
USER node
EXPOSE 8080
# The server stores pending edits and closes sockets with 1001 on SIGTERM; its own limit is 25 s,
# so give the container at least 30 s to stop (compose: stop_grace_period).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "realtime-server/dist/main.js"]
