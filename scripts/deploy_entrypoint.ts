/**
 * What the libSQL server image does with docker-compose.yml's sqld service, as code, so scripts/deploy_check.ts
 * can hand the real sqld binary the very arguments the container would (decision 053 quotes the scripts).
 *
 * `ghcr.io/tursodatabase/libsql-server:v0.24.32` (git tag libsql-server-v0.24.32) has
 * `ENTRYPOINT ["/usr/local/bin/docker-wrapper.sh"]`, `CMD ["/bin/sqld"]` and `WORKDIR /var/lib/sqld`.
 * docker-wrapper.sh, as root: `mkdir -p $SQLD_DB_PATH; chown -R sqld:sqld $SQLD_DB_PATH` (default `iku.db`), then
 * `exec gosu sqld docker-entrypoint.sh "$@"`. docker-entrypoint.sh: when `$1` is `/bin/sqld`, it appends
 * `--db-path $SQLD_DB_PATH --http-listen-addr $SQLD_HTTP_LISTEN_ADDR` and, by `SQLD_NODE` (default `primary`),
 * `--grpc-listen-addr $SQLD_GRPC_LISTEN_ADDR` (primary), `--primary-grpc-url $SQLD_PRIMARY_URL` (replica) or
 * nothing (standalone); then `exec "$@"`. Any other first word runs as given.
 */

/** The image's pinned tag, and the sqld version it holds (the git tag the image is built from). */
export const SQLD_IMAGE = "ghcr.io/tursodatabase/libsql-server:v0.24.32";
export const SQLD_VERSION = "0.24.32";

/** Where the image runs sqld from (its WORKDIR): a relative --db-path lands here. */
export const SQLD_WORKDIR = "/var/lib/sqld";

/** The arguments docker-entrypoint.sh appends itself; the command must not repeat them. */
export const APPENDED_FLAGS = [
  "--db-path",
  "-d",
  "--http-listen-addr",
  "--grpc-listen-addr",
  "--primary-grpc-url",
];

/** bash's `${NAME:-default}`: unset or empty takes the default. */
const orDefault = (env: Record<string, string | undefined>, name: string, dflt: string) => env[name] || dflt;

/** The argv the container's entrypoint execs for `command` (the compose `command:`) and `env`. */
export function entrypointArgv(command: string[], env: Record<string, string | undefined>): string[] {
  if (command[0] !== "/bin/sqld") return command;
  const args = [
    "--db-path",
    orDefault(env, "SQLD_DB_PATH", "iku.db"),
    "--http-listen-addr",
    orDefault(env, "SQLD_HTTP_LISTEN_ADDR", "0.0.0.0:8080"),
  ];
  switch (orDefault(env, "SQLD_NODE", "primary")) {
    case "primary":
      args.push("--grpc-listen-addr", orDefault(env, "SQLD_GRPC_LISTEN_ADDR", "0.0.0.0:5001"));
      break;
    case "replica":
      args.push("--primary-grpc-url", env.SQLD_PRIMARY_URL ?? "");
      break;
  }
  // `set -- "$@" ${server_args[@]}`: unquoted, so each value is split on white space (an empty one vanishes).
  return [...command, ...args.flatMap((a) => a.split(/\s+/).filter(Boolean))];
}

/** The flag names a command gives (`--flag value` and `--flag=value` alike). */
export function flagNames(command: string[]): string[] {
  return command.filter((a) => a.startsWith("-")).map((a) => a.split("=")[0]);
}
