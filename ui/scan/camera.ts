/**
 * The camera side of the scan dialog: the back camera's stream, and a reader of QR codes in its frames,
 * the browser's BarcodeDetector where it reads QR codes, else the JS decoder (loaded on demand).
 */
export type FrameReader = (video: HTMLVideoElement) => Promise<string | null>;

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface DetectorClass {
  new (opts: { formats: string[] }): Detector;
  getSupportedFormats?(): Promise<string[]>;
}

export async function frameReader(): Promise<FrameReader> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  const formats: string[] = await Native?.getSupportedFormats?.().catch(() => []) ?? [];
  if (Native && formats.includes("qr_code")) {
    const detector = new Native({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video).catch(() => []))[0]?.rawValue ?? null;
  }
  const { readFrame } = await import("./decode_frame.ts");
  return (video) => Promise.resolve(readFrame(video));
}

/** Why the camera could not start, in words a user can act on. */
export function cameraProblem(e: unknown): string {
  const name = (e as { name?: string })?.name;
  if (name === "NotAllowedError" || name === "SecurityError") {
    return "The camera is blocked for this site: allow it in the browser's settings, or type the serial number.";
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") {
    return "No camera was found: type the serial number or use a USB scanner.";
  }
  if (!navigator.mediaDevices?.getUserMedia) {
    return "This browser cannot use the camera here (it needs a secure https address).";
  }
  return "The camera could not start: type the serial number or use a USB scanner.";
}

/** The back camera (the one facing away from a phone's user) where there is one. */
export function openCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(new Error("no getUserMedia"));
  return navigator.mediaDevices.getUserMedia({
    video: { facingMode: { ideal: "environment" } },
    audio: false,
  });
}
