import { Component, type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { showError } from "./events.ts";

/**
 * A dialog whose code (its form, react-aria's dialog and fields) loads when it is first opened, not
 * with the page (page JavaScript budget, issue 10; decision 022). Until its chunk has come, a modal
 * "Loading..." box stands where the dialog will open; `preload()` starts the download early (on hover
 * or focus of the button that opens it). A chunk that fails to load shows the error and closes the
 * dialog (`onClose` or `onCancel`, when it has one); the next opening tries again.
 */
export function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  /** The dialog once its code has come (preloaded, or opened before): it then opens without "Loading...". */
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    loading ??= load().then((c) => {
      loaded = c;
      return { default: c };
    }).catch((e) => {
      loading = undefined;
      Lazy = lazy(preload);
      throw e;
    });
  let Lazy = lazy(preload);
  function LazyDialog(props: P) {
    const { onClose, onCancel } = props as { onClose?: unknown; onCancel?: unknown };
    const close = onClose ?? onCancel;
    // Chosen once per opening: switching from the lazy one to the loaded one while open would remount it.
    const [Shown] = useState(() => loaded ?? Lazy);
    return (
      <LoadFailure onFail={typeof close === "function" ? close as () => void : undefined}>
        <Suspense fallback={<DialogLoading />}>
          <Shown {...props} />
        </Suspense>
      </LoadFailure>
    );
  }
  LazyDialog.preload = () => void preload().catch(() => {});
  return LazyDialog;
}

/** What stands in for a dialog while its code loads: modal, announced, and gone once the dialog opens. */
export function DialogLoading() {
  return (
    <div className="loading-overlay">
      <div className="loading-box" role="dialog" aria-modal="true" aria-label="Loading" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        Loading...
      </div>
    </div>
  );
}

/** Handlers that start a dialog's download when the pointer or focus reaches the control that opens it. */
export function preloadOn(preload: (() => void) | undefined) {
  return preload ? { onPointerEnter: preload, onPointerDown: preload, onFocus: preload } : {};
}

/**
 * Starts a dialog's download once the page has hydrated and the browser is idle, for a dialog that is the
 * screen's next step (the scan dialog where scanning is the task: a ticket in check-in mode, the batch form),
 * so the tap finds its code there: on the slow link of issue 32 the scan dialog's first opening took 0.4 s of
 * round trip and 0.5 s of bytes after the tap (decision 050). Only for dialogs that cost little: the page
 * itself, which waits for hydration, never competes with it.
 */
export function usePreloadWhenIdle(preload: (() => void) | undefined) {
  useEffect(() => (preload ? whenIdle(preload) : undefined), []);
}

/** Calls `fn` once every island has hydrated (`body[data-hydrated]`, ui/client.ts) and the browser is idle. */
export function whenIdle(fn: () => void): () => void {
  let cancelled = false;
  const run = () => {
    if (!cancelled) fn();
  };
  // Safari has no requestIdleCallback: a short timer after hydration stands in.
  const idle = () =>
    typeof requestIdleCallback === "function"
      ? requestIdleCallback(run, { timeout: 2000 })
      : setTimeout(run, 200);
  const hydrated = () => !!document.body.dataset.hydrated;
  if (hydrated()) {
    idle();
    return () => (cancelled = true);
  }
  const observer = new MutationObserver(() => {
    if (!hydrated()) return;
    observer.disconnect();
    idle();
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-hydrated"] });
  return () => {
    cancelled = true;
    observer.disconnect();
  };
}

class LoadFailure extends Component<{ onFail?: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(e: unknown) {
    console.error("dialog failed to load", e);
    showError(new Error("The dialog could not be loaded: check the connection and try again."));
    this.props.onFail?.();
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
