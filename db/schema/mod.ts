export * from "./companies.ts";
export * from "./users.ts";
