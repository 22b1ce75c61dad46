import { lazy, startTransition, Suspense, useId, useState } from "react";
import { Icon } from "../../components/icons.tsx";
import type { UnitOption } from "./types.ts";

let loading: Promise<{ default: typeof import("./UnitPicker.tsx").UnitPicker }> | undefined;
const load = () => loading ??= import("./UnitPicker.tsx").then((m) => ({ default: m.UnitPicker }));
const UnitPicker = lazy(load);

/**
 * The templates page's business unit choice. The combobox (react-aria) loads on demand (decision 022):
 * until the field is first reached it is a native input that looks the same; reaching it (pointer or
 * focus) loads the picker, which then takes its place, focused, with what was typed meanwhile. The
 * stand-in stays on screen and usable while the code loads (a transition, not a fallback).
 */
export function UnitChoice({ selected, onChange }: {
  selected: UnitOption | null;
  onChange: (u: UnitOption | null) => void;
}) {
  const [wanted, setWanted] = useState(false);
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const id = useId();
  const want = () => {
    void load();
    startTransition(() => setWanted(true));
  };
  const standIn = (
    <div className="field combobox">
      <label htmlFor={id}>Business Unit</label>
      <div className="combobox-control">
        <input
          id={id}
          role="combobox"
          aria-expanded="false"
          aria-autocomplete="list"
          value={typed ?? selected?.name ?? ""}
          onChange={(e) => setTyped(e.target.value)}
          onFocus={want}
          onPointerEnter={() => void load()}
          onPointerDown={want}
        />
        <span className="combobox-button" aria-hidden="true">
          <Icon name="expand" size={20} />
        </span>
      </div>
    </div>
  );
  return (
    <Suspense fallback={standIn}>
      {wanted
        ? <UnitPicker selected={selected} onChange={onChange} initialInput={typed} autoFocus />
        : standIn}
    </Suspense>
  );
}
