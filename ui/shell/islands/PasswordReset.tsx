import { useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api, ConflictError, fieldErrors } from "../../lib/api.ts";
import { navigateWithSnack, showError, showSnack } from "../../lib/events.ts";
import { useHydrated } from "../../lib/hooks.ts";
import { SelfUpdateInput } from "../../../api/admin/users/schemas.ts";
import { issuesOf } from "../../lib/form.ts";

interface Props {
  user: { id: number; name: string; email: string; phone: string };
}

/** The persistent forced password update: the user form in reset mode, until a new password is set. */
export default function PasswordReset({ user }: Props) {
  const hydrated = useHydrated();
  const [password, setPassword] = useState("");
  const [phone, setPhone] = useState(user.phone);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(true);

  // The record as it is now (its version goes with the save as If-Match, decision 038; its phone fills the
  // field): the user's own row of the users list, which everyone may read.
  const [version, setVersion] = useState<number | undefined>(undefined);
  useEffect(() => {
    const ac = new AbortController();
    api<{ results: { id: number; phone: string; version: number }[] }>("/api/admin/users", {
      query: { search_name: user.email, rowsPerPage: 10 },
      signal: ac.signal,
    }).then(({ results }) => {
      const me = results.find((u) => u.id === user.id);
      if (!me) return;
      setVersion(me.version);
      setPhone((typed) => typed === user.phone ? me.phone : typed);
    }).catch(() => {/* the save then goes without If-Match */});
    return () => ac.abort();
  }, [user.id, user.email, user.phone]);

  // The name is not edited here: it is not sent, so a rename made meanwhile by an admin stays.
  const check = SelfUpdateInput.safeParse({ id: user.id, phone, password });
  const submit = async () => {
    if (!check.success) {
      setErrors(issuesOf(check, { top: true }));
      return;
    }
    setBusy(true);
    try {
      await api("/api/admin/users", { method: "POST", json: check.data, version });
      setOpen(false);
      // The page loads again with the new session; the message is shown there (a snack before a reload
      // would vanish with the page).
      navigateWithSnack(location.pathname + location.search, "Password updated");
    } catch (e) {
      if (e instanceof ConflictError) {
        // Changed meanwhile (an admin edited the account): take its phone and version, ask again.
        setVersion(e.current.version);
        if (typeof e.current.phone === "string") setPhone(e.current.phone);
        showSnack("error", "Your account was changed meanwhile: check your phone number and submit again.");
      } else {
        setErrors(fieldErrors(e));
        showError(e);
      }
    } finally {
      setBusy(false);
    }
  };

  if (!hydrated) return null;
  return (
    <Dialog title="Please update your password" isOpen={open} persistent width={600}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <p>Your password must be changed before you continue.</p>
        <TextField label="Name" value={user.name} onChange={() => {}} isDisabled />
        <TextField label="Email" value={user.email} onChange={() => {}} isReadOnly type="email" />
        <TextField
          label="Password"
          type="password"
          value={password}
          onChange={(v) => {
            setPassword(v);
            setErrors((e) => ({ ...e, password: "" }));
          }}
          error={errors.password ||
            (password && password.length < 8 ? "Password must be at least 8 characters" : "")}
          autoComplete="new-password"
          autoFocus
          isRequired
        />
        <TextField
          label="Phone"
          type="tel"
          value={phone}
          onChange={setPhone}
          error={errors.phone}
          isRequired
        />
        <div className="dialog-actions">
          <span className="dialog-status" role="status">{busy ? "Saving, please wait..." : ""}</span>
          <Button type="submit" className="btn btn-primary" isDisabled={busy || !check.success}>
            {busy ? "Saving..." : "Submit"}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
