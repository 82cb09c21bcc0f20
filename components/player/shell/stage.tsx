import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { CANVAS } from "@/lib/contract/deck";

function useElementSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
}

// The 1920x1080 canvas, scaled to fit its container and centred (letterboxed).
export function Stage({ children }: { children: ReactNode }) {
  const [ref, { width, height }] = useElementSize<HTMLDivElement>();
  const scale = width && height ? Math.min(width / CANVAS.width, height / CANVAS.height) : 0;
  return (
    <div ref={ref} className="dh-stage">
      <div
        className="dh-canvas"
        style={{
          transform: `translate(${(width - CANVAS.width * scale) / 2}px, ${(height - CANVAS.height * scale) / 2}px) scale(${scale})`,
          visibility: scale ? "visible" : "hidden",
        }}
      >
        {children}
      </div>
    </div>
  );
}

// A canvas drawn at a fixed width (thumbnails), or fitted to its container (`fit`).
export function ScaledCanvas({ children, fit }: { children: ReactNode; fit?: boolean }) {
  const [ref, { width, height }] = useElementSize<HTMLDivElement>();
  const scale = fit ? Math.min(width / CANVAS.width, height / CANVAS.height) : width / CANVAS.width;
  return (
    <div ref={ref} className={fit ? "dh-stage" : "dh-thumb-frame"}>
      <div
        className="dh-canvas"
        style={{
          transform: fit
            ? `translate(${(width - CANVAS.width * scale) / 2}px, ${(height - CANVAS.height * scale) / 2}px) scale(${scale})`
            : `scale(${scale})`,
          visibility: scale ? "visible" : "hidden",
        }}
      >
        {children}
      </div>
    </div>
  );
}
