import { Link, useLocation } from "@remix-run/react";

/** The error screen of the root error boundary. */
export function ErrorScreen({ message }: { message?: string }) {
  const location = useLocation();
  return (
    <section role="alert" className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">
      <h1 className="text-3xl font-semibold">Something went wrong</h1>
      <p className="mt-3 text-muted-foreground">{message || "An unexpected error occurred"}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {/* Navigating away clears the route error boundary. */}
        <Link to="/" className="btn btn-primary">
          Return to Home
        </Link>
        {/* A link to the same URL reloads the page, with or without JavaScript. */}
        <a href={location.pathname + location.search} className="btn btn-outline">
          Reload Page
        </a>
      </div>
    </section>
  );
}
