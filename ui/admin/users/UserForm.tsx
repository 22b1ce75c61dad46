import { useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { CheckboxGroup } from "../../primitives/CheckboxGroup.tsx";
import { JobsPicker } from "./JobsPicker.tsx";
import { api } from "../../lib/api.ts";
import { PASSWORD_MESSAGE, UserInput } from "../../../api/admin/users/schemas.ts";
import { ALL_GRANTS, GRANT_INFO } from "../../../lib/policy.ts";
import type { UserRow, UsersGrants } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

const ACCOUNT_TYPES = ["Company-Admin", "Job-Admin", "Data-Entry", "General"];
// Labels people read, with what each allows; the values stay the spec's names.
const GRANT_OPTIONS = ALL_GRANTS.map((g) => ({ value: g, ...GRANT_INFO[g as keyof typeof GRANT_INFO] }));

const loadCompanies = (text: string, signal: AbortSignal) =>
  api<{ results: ComboOption[] }>("/api/companies", { query: { forUser: true, search_name: text }, signal })
    .then((r) => r.results.map(({ id, name }) => ({ id, name })));

/** The spec's first message per field, and the create-only password rule. */
function validate(body: Record<string, unknown>, creating: boolean): Record<string, string> {
  const r = UserInput.safeParse(body);
  const out = issuesOf(r, { top: true });
  if (creating && !body.password) out.password ??= PASSWORD_MESSAGE;
  return out;
}

/** The form's values as filled from a user (the password is not among them: it is never shown back). */
const initial = (user: UserRow | null | undefined) => ({
  name: user?.name ?? "",
  email: user?.email ?? "",
  phone: user?.phone ?? "",
  account_type: user?.account_type ?? "",
  company_id: user ? { id: user.company.id, name: user.company.name } as ComboOption : null,
  permissions: user?.permissions ?? [],
  active: user?.active ?? true,
  isSalesRep: user?.isSalesRep ?? false,
  passwordReset: user?.passwordReset ?? false,
  jobs: user?.jobs ?? [],
});

/** The form's labels, for the conflict dialog. */
const LABELS: Record<string, string> = {
  account_type: "Account Type",
  company_id: "Company",
  permissions: "Roles & permissions",
  isSalesRep: "Sales Rep",
  passwordReset: "Force Password Reset",
};

/** Add or edit a user (max width 800). Submit stays disabled while the form is invalid or saving. */
export function UserForm({ user, can, onClose, onSaved }: {
  user: UserRow | null;
  can: UsersGrants;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  // The user's version goes with the save; a 412 opens the conflict dialog (decision 038).
  const edit = useVersioned(user, initial, { labels: LABELS });
  const { setV } = edit;
  const [password, setPassword] = useState("");
  const v = { ...edit.v, password };
  const { touch, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const body = {
    ...(user ? { id: user.id } : {}),
    ...v,
    account_type: v.account_type || undefined,
    company_id: v.company_id?.id,
    // Not edited here (the sales screens own them): kept as they are.
    categories: user?.categories ?? [],
    categories_bu: user?.categories_bu ?? [],
    jobs: v.account_type === "Data-Entry" ? v.jobs : [],
  };
  const errors = validate(body, !user);
  const valid = Object.keys(errors).length === 0;
  const shown = shownFrom(serverErrors, errors);
  const set = <K extends keyof typeof v>(k: K, value: (typeof v)[K]) => {
    if (k === "password") setPassword(value as string);
    else setV((o) => ({ ...o, [k]: value }));
    touch(k);
    setServerErrors((e) => ({ ...e, [k]: "" }));
  };
  const text = (k: "name" | "email" | "password" | "phone") => ({
    value: v[k],
    onChange: (x: string) => set(k, x),
    onBlur: () => touch(k),
    error: shown(k),
  });

  const submit = async () => {
    if (!valid) return;
    await save(
      () =>
        api<{ message?: string }>("/api/admin/users", { method: "POST", json: body, version: edit.version }),
      onSaved,
    );
  };
  edit.onResend(submit);

  const accountTypes = v.account_type && !ACCOUNT_TYPES.includes(v.account_type)
    ? [...ACCOUNT_TYPES, v.account_type]
    : ACCOUNT_TYPES;
  return (
    <FormDialog
      title={user ? "Edit User" : "Add User"}
      width={800}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={valid}
      busy={busy}
      submitLabel="Submit"
      versioned={edit}
    >
      <div className="form-grid">
        <TextField label="Name" {...text("name")} isRequired autoFocus />
        <TextField label="Email" type="email" {...text("email")} isRequired isDisabled={!!user} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          {...text("password")}
          isRequired={!user}
        />
        <TextField label="Phone" type="tel" {...text("phone")} isRequired />
        <Select
          label="Account Type"
          options={accountTypes.map((t) => ({ id: t, label: t }))}
          value={v.account_type || null}
          onChange={(t) => set("account_type", t)}
          onBlur={() => touch("account_type")}
          error={shown("account_type")}
          isRequired
        />
        <ComboBox
          label="Company"
          selected={v.company_id}
          onChange={(c) => {
            setV((o) => ({ ...o, company_id: c }));
            touch("company_id");
            setServerErrors((e) => ({ ...e, company_id: "" }));
          }}
          onBlur={() => touch("company_id")}
          load={loadCompanies}
          error={shown("company_id")}
          isRequired
        />
      </div>
      <CheckboxGroup
        label="Roles & permissions"
        options={GRANT_OPTIONS}
        value={v.permissions}
        onChange={(p) => set("permissions", p)}
        disabledValues={can.superuser ? [] : ["superuser"]}
        error={shown("permissions")}
      />
      {v.account_type === "Data-Entry" && (
        <JobsPicker
          value={v.jobs}
          onChange={(jobs) => set("jobs", jobs)}
          onBlur={() => touch("jobs")}
          error={shown("jobs")}
        />
      )}
      <div className="checkbox-row">
        <Checkbox isSelected={v.active} onChange={(x) => set("active", x)}>Active</Checkbox>
        <Checkbox isSelected={v.isSalesRep} onChange={(x) => set("isSalesRep", x)}>Sales Rep</Checkbox>
        {can.forceReset && (
          <Checkbox isSelected={v.passwordReset} onChange={(x) => set("passwordReset", x)}>
            Force Password Reset
          </Checkbox>
        )}
      </div>
    </FormDialog>
  );
}
