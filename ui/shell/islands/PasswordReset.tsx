import { useState } from "react";
import { Button, Form } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api, fieldErrors } from "../../lib/api.ts";
import { showError, showSnack } from "../../lib/events.ts";
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

  const check = SelfUpdateInput.safeParse({ id: user.id, name: user.name, phone, password });
  const submit = async () => {
    if (!check.success) {
      setErrors(issuesOf(check, { top: true }));
      return;
    }
    setBusy(true);
    try {
      await api("/api/admin/users", { method: "POST", json: check.data });
      showSnack("success", "Password updated");
      setOpen(false);
      location.reload();
    } catch (e) {
      setErrors(fieldErrors(e));
      showError(e);
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
          <Button type="submit" className="btn btn-primary" isDisabled={busy || !check.success}>
            Submit
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
