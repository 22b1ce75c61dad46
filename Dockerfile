# The server on Node 20 (for npm and Vite) with the Deno that npm installs.
FROM node:20-bookworm-slim

WORKDIR /app

# Dependencies first, so a source change does not reinstall them. Dev dependencies are needed:
# Deno and Vite are among them.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY deno.json vite.config.ts ./
COPY api ./api
COPY ui ./ui
COPY db ./db
COPY lib ./lib
COPY scripts ./scripts
RUN npm run build

RUN mkdir -p /data && chown node:node /data
USER node

ENV DATA_DIR=/data \
    PORT=8000 \
    HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 8000

CMD ["node_modules/.bin/deno", "run", "--v8-flags=--heap-growing-percent=100,--expose-gc", "-A", "api/main.ts"]
