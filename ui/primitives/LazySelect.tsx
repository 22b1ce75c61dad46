import { type ComponentProps, lazy, Suspense, useId, useState } from "react";
import { Icon } from "../components/icons.tsx";
import { preloadOn } from "../lib/lazy_dialog.tsx";
import type { Select as SelectType } from "./Select.tsx";

type Props = Omit<ComponentProps<typeof SelectType>, "openNow" | "error" | "isRequired" | "name" | "onBlur">;

let loading: Promise<{ default: typeof SelectType }> | undefined;
const load = () => loading ??= import("./Select.tsx").then((m) => ({ default: m.Select }));
const Select = lazy(load);

/**
 * A `Select` shown on a page as it loads (not in a dialog), whose react-aria code loads on demand
 * (decision 022): until first pressed it is a native button that looks and reads the same (its label
 * and value), and the code starts loading as the pointer or focus reaches it; pressed, react-aria's
 * select takes its place, opened, with focus on its button.
 */
export function LazySelect(props: Props) {
  const [pressed, setPressed] = useState(false);
  const labelId = useId();
  const valueId = useId();
  const { label, options, value, isDisabled, placeholder = "Select...", className = "field" } = props;
  const chosen = options.find((o) => o.id === value);
  const trigger = (loading: boolean) => (
    <div className={`${className} select`} data-disabled={isDisabled || undefined}>
      <span id={labelId}>{label}</span>
      <button
        type="button"
        className="select-trigger"
        aria-haspopup="listbox"
        aria-labelledby={`${valueId} ${labelId}`}
        aria-busy={loading || undefined}
        disabled={isDisabled}
        onClick={() =>
          setPressed(true)}
        {...preloadOn(() =>
          void load()
        )}
      >
        <span id={valueId} className="select-value" data-placeholder={chosen ? undefined : true}>
          {chosen?.label ?? placeholder}
        </span>
        <Icon name="expand" size={20} />
      </button>
    </div>
  );
  if (!pressed) return trigger(false);
  return (
    <Suspense fallback={trigger(true)}>
      <Select {...props} openNow />
    </Suspense>
  );
}
