/**
 * What a refused scan sounds and feels like (issue 32): someone holding a scanner looks at the unit, not at
 * the screen, so a refusal is heard (a short low double tone through WebAudio) and, on a phone, felt
 * (`navigator.vibrate`). Either is skipped where the device has none; the words are the dialog's.
 */

type AudioContextClass = typeof AudioContext;

let audio: AudioContext | null = null;

/** The page's one audio context, made on first use (browsers allow only a few). */
function context(): AudioContext | null {
  if (audio) return audio;
  const Ctx = (globalThis as { AudioContext?: AudioContextClass; webkitAudioContext?: AudioContextClass })
    .AudioContext ?? (globalThis as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
  if (!Ctx) return null;
  try {
    audio = new Ctx();
  } catch {
    return null;
  }
  return audio;
}

/**
 * Called on a scan's key press or click: a browser starts audio only after the user has acted, so the
 * context is made (or woken) then, and a refusal that comes after an awaited look-up can still sound.
 */
export function readyCue(): void {
  const ctx = context();
  if (ctx?.state === "suspended") void ctx.resume().catch(() => {});
}

/** Two short low beeps and a double buzz: "that scan was refused". */
export function refusalCue(): void {
  try {
    navigator.vibrate?.([120, 80, 120]);
  } catch {
    // a browser that refuses vibration (no user activation, a desktop) says so by throwing in some versions
  }
  const ctx = context();
  if (!ctx) return;
  try {
    if (ctx.state === "suspended") void ctx.resume().catch(() => {});
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    const start = ctx.currentTime + 0.01;
    for (const at of [0, 0.18]) {
      const tone = ctx.createOscillator();
      tone.type = "square";
      tone.frequency.value = 220;
      tone.connect(gain);
      gain.gain.setValueAtTime(0.12, start + at);
      gain.gain.setValueAtTime(0, start + at + 0.12);
      tone.start(start + at);
      tone.stop(start + at + 0.12);
    }
  } catch {
    // no sound is not a failure of the scan: the words still say it
  }
}
