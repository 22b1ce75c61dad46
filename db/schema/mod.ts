export * from "./enums.ts";
export * from "./companies.ts";
export * from "./users.ts";
export * from "./files.ts";
export * from "./parts.ts";
export * from "./jobs.ts";
export * from "./inspections.ts";
