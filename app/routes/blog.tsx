import { defer, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Await, Link, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { ExternalLink, Loader2 } from "~/components/ui/icons.generated";
import { Suspense, type ReactNode } from "react";
import { NewsletterSignup } from "~/features/leads/newsletter-signup";
import { PageHeader } from "~/components/page-header";
import { cardEnterClass } from "~/components/card-enter";
import { cn } from "~/components/ui/cn";
import { pages } from "~/content/pages";
import { getBlogPosts } from "~/features/blog/blog-posts.server";
import {
  cacheControlFor,
  pageCacheHeaders,
  PRIVATE_CACHE_CONTROL,
  STREAMED_HEADERS,
} from "~/features/blog/page-cache.server";
import { getConfig } from "~/utils/config.server";
import { acceptsStreamedData } from "~/utils/render-mode.server";
import type { BlogPost } from "~/features/blog/post";
import { formatLongDate } from "~/utils/format";
import { pageMeta } from "~/utils/meta";

const page = pages.blog;

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env, ctx, caches } = context.cloudflare;
  const posts = getBlogPosts({
    feedUrl: getConfig(env).blogFeedUrl,
    cache: caches?.default ?? null,
    origin: new URL(request.url).origin,
    waitUntil: (promise) => ctx.waitUntil(promise),
  }).then((result) => result.posts);
  // A client-side navigation gets the posts streamed (the spinner shows meanwhile). A document
  // request gets them in the HTML: browsers without JavaScript cannot reveal streamed content, and
  // the posts are nearly always a cache read away (docs/decisions/007-blog-feed.md).
  const streamed = acceptsStreamedData(request);
  return defer(
    { posts: streamed ? posts : await posts },
    // A streamed page is never shared: a shared cache would hand its spinner to a navigation.
    {
      headers: {
        "Cache-Control": streamed ? PRIVATE_CACHE_CONTROL : cacheControlFor(request),
        ...(streamed ? STREAMED_HEADERS : {}),
      },
    },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders }) =>
  pageCacheHeaders(loaderHeaders, parentHeaders);

/** The posts depend on no form (the signup block on this page): a submission does not reload them. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod ? false : defaultShouldRevalidate;

function PostCard({ post, index }: { post: BlogPost; index: number }) {
  return (
    <article
      className={cn(
        "flex h-full flex-col overflow-hidden rounded-lg border border-border bg-card text-card-foreground shadow-sm",
        cardEnterClass(index),
      )}
    >
      {post.coverImage ? (
        <img
          src={post.coverImage}
          alt=""
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          className="aspect-video w-full object-cover"
        />
      ) : null}
      <div className="flex flex-1 flex-col gap-3 p-5">
        <h2 className="text-lg font-semibold leading-snug">{post.title}</h2>
        {post.excerpt ? <p className="text-sm text-muted-foreground">{post.excerpt}</p> : null}
        <p className="mt-auto flex flex-wrap gap-x-3 text-xs text-muted-foreground">
          {post.publishedAt ? (
            <time dateTime={post.publishedAt}>{formatLongDate(new Date(post.publishedAt))}</time>
          ) : null}
          <span>{post.readingTime} min read</span>
        </p>
        {post.url ? (
          <a href={post.url} target="_blank" rel="noopener" className="btn btn-outline self-start">
            Read More
            <span className="sr-only">: {post.title} (opens in a new tab)</span>
            <ExternalLink aria-hidden="true" className="size-4" />
          </a>
        ) : null}
      </div>
    </article>
  );
}

function PostGrid({ posts }: { posts: BlogPost[] }) {
  return (
    // A card list (tailwind.css): each post is laid out when near the screen; ~260px its usual height.
    <ul
      data-testid="blog-posts"
      className="card-grid card-grid-fluid grid gap-6 [--card-height:260px] sm:grid-cols-2 lg:grid-cols-3"
    >
      {posts.map((post, index) => (
        <li key={post.id}>
          <PostCard post={post} index={index} />
        </li>
      ))}
    </ul>
  );
}

function PostsLoading() {
  return (
    <div role="status" className="flex justify-center py-16 text-muted-foreground">
      <Loader2 aria-hidden="true" className="size-8 animate-spin" />
      <span className="sr-only">Loading posts…</span>
    </div>
  );
}

/** The blog's error state: only when rendering itself fails (a dead feed shows the placeholder). */
export function BlogError() {
  return (
    <div role="alert" className="flex flex-col items-center gap-4 py-16 text-center">
      <p className="text-lg font-medium">Failed to load blog posts</p>
      {/* A plain GET form reloads the whole page, with or without JavaScript. */}
      <form method="get">
        <button type="submit" className="btn btn-primary">
          Try Again
        </button>
      </form>
    </div>
  );
}

function BlogLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PageHeader heading={page.heading}>
        {page.description}{" "}
        <Link to={pages.news.path} className="text-primary underline underline-offset-2">
          The group's own news and announcements
        </Link>
        .
      </PageHeader>
      <div className="mx-auto flex max-w-6xl flex-col gap-10 px-4 pb-16">
        <NewsletterSignup variant="full" source="blog" />
        {children}
      </div>
    </>
  );
}

export default function Blog() {
  const { posts } = useLoaderData<typeof loader>();
  return (
    <BlogLayout>
      <Suspense fallback={<PostsLoading />}>
        <Await resolve={posts} errorElement={<BlogError />}>
          {(resolved) => <PostGrid posts={resolved} />}
        </Await>
      </Suspense>
    </BlogLayout>
  );
}

export function ErrorBoundary() {
  return (
    <BlogLayout>
      <BlogError />
    </BlogLayout>
  );
}
