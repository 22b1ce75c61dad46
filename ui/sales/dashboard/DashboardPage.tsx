/** The frame fills what the top bar (60px) and the content's padding (16px + 48px) leave. */
const FRAME_STYLE = {
  display: "block",
  width: "100%",
  height: "calc(100vh - 124px)",
  minHeight: 400,
  border: 0,
} as const;

/**
 * /sales/dashboard: the company's external dashboard in a frame for a listed user, else a blank
 * section. `url` is already checked (http(s) only, listed user only) by `salesDashboardURL`.
 */
export function DashboardPage({ url }: { url: string | undefined }) {
  return (
    <section className="page" aria-label="Sales Dashboard">
      {url && (
        <iframe
          title="Sales Dashboard"
          src={url}
          style={FRAME_STYLE}
          sandbox="allow-scripts allow-same-origin allow-popups allow-forms"
          referrerPolicy="no-referrer"
        />
      )}
    </section>
  );
}
