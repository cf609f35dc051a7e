import { useMemo } from "react";
import { encode } from "uqr";

/**
 * A QR code as one SVG path (uqr does the encoding): crisp at any size, no canvas, no
 * innerHTML. Dark modules on a light quiet zone, whatever the colour scheme, so phones
 * can read it.
 */
export function QrCode({ value, label, size = 240 }: { value: string; label: string; size?: number }) {
  const { path, modules } = useMemo(() => {
    const { data } = encode(value, { border: 2 });
    const parts: string[] = [];
    for (const [y, row] of data.entries()) {
      for (const [x, dark] of row.entries()) if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    }
    return { path: parts.join(""), modules: data.length };
  }, [value]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
