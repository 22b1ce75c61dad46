import { useEffect, useRef, useState } from "react";
import { cameraProblem, frameReader, openCamera } from "./camera.ts";

/** How often a frame is searched: often enough to feel instant, rarely enough to spare a phone's battery. */
const EVERY_MS = 150;

/**
 * The camera's picture with QR codes read from it while it is shown: each code found is passed to
 * `onCode` (the dialog ignores a repeat of the last one). The stream stops when this unmounts.
 */
export function CameraView({ onCode }: { onCode: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const found = useRef(onCode);
  found.current = onCode;
  const [problem, setProblem] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    (async () => {
      try {
        const [s, read] = await Promise.all([openCamera(), frameReader()]);
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        await video.current.play().catch(() => {});
        setReady(true);
        const tick = async () => {
          if (stopped || !video.current) return;
          const code = await read(video.current).catch(() => null);
          if (code && !stopped) found.current(code);
          timer = setTimeout(tick, EVERY_MS);
        };
        void tick();
      } catch (e) {
        console.error("camera failed", e);
        if (!stopped) setProblem(cameraProblem(e));
      }
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  if (problem) return <p className="field-error" role="alert">{problem}</p>;
  return (
    <div className="scan-camera">
      <video ref={video} muted playsInline aria-label="Camera" />
      <p className="muted">{ready ? "Hold a QR label in the frame." : "Starting the camera..."}</p>
    </div>
  );
}
