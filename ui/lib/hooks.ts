import { useEffect, useRef, useState } from "react";

/** false on the server and in the first client render: controls stay disabled until hydrated. */
export function useHydrated(): boolean {
  const [h, setH] = useState(false);
  useEffect(() => setH(true), []);
  return h;
}

/** The value, settled for `ms` milliseconds (autocompletes 300 ms, the batch part search 100 ms). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Calls `load` whenever `key` changes, aborting the previous call. */
export function useLatest<T>(fn: T) {
  const ref = useRef(fn);
  ref.current = fn;
  return ref;
}

/**
 * A react-aria trigger that takes the place of a native look-alike just pressed (decision 022): when
 * `openNow`, it takes focus and opens at once, so closing it returns focus to it.
 */
export function useOpenNow<T extends HTMLElement = HTMLButtonElement>(openNow: boolean | undefined) {
  const button = useRef<T>(null);
  const [isOpen, setOpen] = useState(false);
  useEffect(() => {
    if (!openNow) return;
    button.current?.focus();
    setOpen(true);
  }, []);
  return { button, isOpen, setOpen };
}
