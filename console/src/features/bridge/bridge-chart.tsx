// The recent sync logs over time: stacked bars of syncs that succeeded, had failures, or still run, per hour, day or
// week. Plain inline SVG drawn at the width it is given (so its text keeps its size from 390 px up); one image to
// assistive technology, named by a sentence that sums it up (the table of the logs follows it on the page).
import { useEffect, useRef, useState } from 'react';
import { bucketLabel, type SyncSeries, seriesSummary } from './bridge-data';

const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 28, left: 32 };

export function SyncChart({ series }: { series: SyncSeries }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.floor(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const { buckets, unit } = series;
  const totals = buckets.map((b) => b.succeeded + b.failed + b.other);
  const max = Math.max(1, ...totals);
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, buckets.length);
  const barW = Math.max(2, Math.min(28, slot * 0.7));
  const y = (n: number) => PAD.top + plotH - (n / max) * plotH;
  const ticks = max <= 1 ? [0, 1] : max % 2 === 0 ? [0, max / 2, max] : [0, max];
  // As many axis labels as fit (about one per 56 px), always the last.
  const every = Math.max(1, Math.ceil(buckets.length / Math.max(1, Math.floor(plotW / 56))));
  const summary = seriesSummary(series);

  return (
    <figure className="bridge-chart">
      <div ref={box} className="bridge-chart-box">
        <svg role="img" aria-label={summary} width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`}>
          {ticks.map((t) => (
            <g key={t}>
              <line className="grid-line" x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} />
              <text className="axis" x={PAD.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
                {t}
              </text>
            </g>
          ))}
          {buckets.map((b, i) => {
            const x = PAD.left + i * slot + (slot - barW) / 2;
            let base = 0;
            const parts = (
              [
                ['succeeded', b.succeeded],
                ['failed', b.failed],
                ['other', b.other],
              ] as const
            ).map(([kind, n]) => {
              const rect =
                n > 0 ? <rect key={kind} className={`bar ${kind}`} x={x} width={barW} y={y(base + n)} height={Math.max(1, y(base) - y(base + n))} /> : null;
              base += n;
              return rect;
            });
            const showLabel = (buckets.length - 1 - i) % every === 0;
            return (
              <g key={b.start.getTime()}>
                <title>{`${bucketLabel(b.start, unit, true)}: ${b.succeeded} succeeded, ${b.failed} with failures${b.other ? `, ${b.other} running` : ''}`}</title>
                {/* The whole slot answers the pointer, so an empty period shows its tooltip too. */}
                <rect x={PAD.left + i * slot} y={PAD.top} width={slot} height={plotH} fill="transparent" />
                {parts}
                {showLabel && (
                  <text className="axis" x={x + barW / 2} y={HEIGHT - 8} textAnchor="middle">
                    {bucketLabel(b.start, unit)}
                  </text>
                )}
              </g>
            );
          })}
          <line className="base-line" x1={PAD.left} x2={width - PAD.right} y1={y(0)} y2={y(0)} />
        </svg>
      </div>
      <figcaption>
        <ul className="bridge-legend" aria-label="Legend">
          <li>
            <span className="swatch succeeded" aria-hidden="true" /> Succeeded
          </li>
          <li>
            <span className="swatch failed" aria-hidden="true" /> With failures
          </li>
          {totals.some((_, i) => buckets[i].other > 0) && (
            <li>
              <span className="swatch other" aria-hidden="true" /> Running
            </li>
          )}
          <li className="hint">Syncs per {unit}</li>
        </ul>
      </figcaption>
    </figure>
  );
}
