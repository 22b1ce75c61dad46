import { z } from "zod";
import { ACCOUNT_TYPES } from "../../../lib/enums.ts";
import { ALL_GRANTS } from "../../../lib/policy.ts";
import { id } from "../../lib/validate.ts";

export const MIN_PASSWORD = 8;
export const PASSWORD_MESSAGE = "Password must be at least 8 characters";
export { ACCOUNT_TYPES };

const ids = z.array(id("Must be an id", { coerce: true })).max(10_000, "At most 10000 ids").default([]);

/** The spec's user form (create and admin edit). Empty password = unchanged / none given. */
export const UserInput = z.object({
  id: id("Unknown user", { coerce: true }).optional(),
  name: z.string({ error: "Name is Required" }).trim().min(1, "Name is Required").max(200),
  email: z.string({ error: "Valid Email Address is Required" }).trim().toLowerCase()
    .pipe(z.email("Valid Email Address is Required").max(254, "Valid Email Address is Required")),
  password: z.string().max(200).optional().default("").refine(
    (p) => p === "" || p.length >= MIN_PASSWORD,
    PASSWORD_MESSAGE,
  ),
  phone: z.string({ error: "Phone number is Required" }).trim().min(1, "Phone number is Required").max(50),
  account_type: z.enum(ACCOUNT_TYPES, { error: "Account Type is Required" }),
  company_id: id("Company is required", { coerce: true }),
  permissions: z.array(z.enum(ALL_GRANTS as [string, ...string[]], { error: "Unknown role or permission" }))
    .max(100, "At most 100 roles and permissions").default([]),
  categories: ids,
  categories_bu: ids,
  jobs: ids,
  active: z.boolean().default(true),
  isSalesRep: z.boolean().default(false),
  passwordReset: z.boolean().default(false),
}).refine((u) => u.account_type !== "Data-Entry" || u.jobs.length > 0, {
  // The spec: a Data-Entry user works only on the jobs chosen for them.
  message: "Choose at least one job for a Data-Entry user",
  path: ["jobs"],
});
export type UserInput = z.infer<typeof UserInput>;

/** The forced password update (and any self-service save): name, phone and a new password. */
export const SelfUpdateInput = z.object({
  id: id("Unknown user", { coerce: true }),
  name: z.string().trim().min(1, "Name is Required").max(200).optional(),
  phone: z.string({ error: "Phone number is Required" }).trim().min(1, "Phone number is Required").max(50),
  password: z.string({ error: PASSWORD_MESSAGE }).min(MIN_PASSWORD, PASSWORD_MESSAGE).max(200),
});
export type SelfUpdateInput = z.infer<typeof SelfUpdateInput>;
