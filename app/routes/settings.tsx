import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Panel } from "~/components/content/blocks";
import { answerAction, answerId } from "~/components/form-answer";
import { PageHeader } from "~/components/page-header";
import { Button, buttonClass } from "~/components/ui/button";
import { Switch } from "~/components/ui/switch";
import { settingsCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { saveSettings, settingsView } from "~/features/account/settings.server";
import { ACCOUNT_PATHS } from "~/features/privacy/account-forms";
import { AlertChoiceFields } from "~/features/alerts/alert-choice-fields";
import { pageMeta } from "~/utils/meta";
import { toast } from "~/utils/toast";
import { shortcutsOn, useShortcutsOn } from "~/utils/shortcuts-setting";
import { getTheme, useTheme } from "~/utils/theme";

const page = pages.settings;
const EMAIL_NOTIFICATIONS_KEY = "emailNotifications";
const SETTINGS_FORM = "settings";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return settingsView(request, context.cloudflare.env);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { env, ctx } = context.cloudflare;
  const saved = await saveSettings(request, env, (p) => ctx.waitUntil(p));
  return json(
    { message: saved.message, ok: saved.status === 200 },
    { status: saved.status, headers: saved.retryAfter ? { "Retry-After": String(saved.retryAfter) } : undefined },
  );
}

export const meta: MetaFunction = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

function useBrowserSetting(read: () => boolean, fallback: boolean) {
  const [value, setValue] = useState(fallback);
  useEffect(() => setValue(read()), []); // eslint-disable-line react-hooks/exhaustive-deps
  return [value, setValue] as const;
}

export default function Settings() {
  const { account, newsletter, alerts, alertChoice, ventures, eventReminders } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const [theme, setTheme] = useTheme();
  const [shortcuts, setShortcuts] = useShortcutsOn();
  const [emails, setEmails] = useBrowserSetting(() => localStorage.getItem(EMAIL_NOTIFICATIONS_KEY) !== "off", true);
  const storeEmails = (on: boolean) => {
    setEmails(on);
    try {
      localStorage.setItem(EMAIL_NOTIFICATIONS_KEY, on ? "on" : "off");
    } catch {
      // Storage blocked: the switch still shows the choice for this visit.
    }
  };
  // The theme, the shortcuts and the e-mail preference apply as they are switched, so the form's native reset
  // cannot undo them: Cancel puts back what they were when the page opened (or was last saved).
  useEffect(() => {
    if (actionData?.message)
      toast({
        title: actionData.ok ? "Settings saved" : "Settings not saved",
        description: actionData.message,
        ...(actionData.ok ? {} : { variant: "destructive" as const }),
      });
  }, [actionData]);
  const kept = useRef<{ theme: typeof theme; emails: boolean; shortcuts: boolean } | null>(null);
  useEffect(() => {
    kept.current = {
      theme: getTheme(),
      emails: localStorage.getItem(EMAIL_NOTIFICATIONS_KEY) !== "off",
      shortcuts: shortcutsOn(),
    };
  }, [actionData]);
  const fieldClass =
    "mt-1 block w-full rounded-md border border-border bg-muted px-3 py-2 text-sm text-muted-foreground";
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <Form
        method="post"
        action={answerAction(page.path, SETTINGS_FORM)}
        className="mx-auto max-w-6xl space-y-6 px-4 pb-16"
        key={`${newsletter}-${alerts}-${eventReminders}-${JSON.stringify(alertChoice)}`}
        // The newsletter switch resets natively (to the stored subscription); the others by hand.
        onReset={() => {
          if (!kept.current) return;
          setTheme(kept.current.theme);
          storeEmails(kept.current.emails);
          setShortcuts(kept.current.shortcuts);
        }}
      >
        <Panel id="account-heading" heading="Account">
          {account ? null : (
            <p className="mt-1 text-sm text-muted-foreground">
              You are not signed in.{" "}
              <a href={`/api/login?returnTo=${page.path}`} className="text-primary underline underline-offset-4">
                Log in
              </a>{" "}
              to see your account.
            </p>
          )}
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="settings-username" className="text-sm font-medium">
                Username
              </label>
              <input
                id="settings-username"
                type="text"
                value={account?.username ?? "Guest"}
                disabled
                readOnly
                className={fieldClass}
              />
            </div>
            <div>
              <label htmlFor="settings-email" className="text-sm font-medium">
                Email
              </label>
              <input
                id="settings-email"
                type="email"
                value={account?.email ?? ""}
                placeholder="Not signed in"
                disabled
                readOnly
                className={fieldClass}
              />
            </div>
          </div>
        </Panel>
        <Panel id="preferences-heading" heading="Preferences" flush>
          <div className="divide-y divide-border">
            <Switch
              name="darkMode"
              label={copy.darkMode}
              help={copy.darkModeHelp}
              checked={theme === "dark"}
              onChange={(on) => setTheme(on ? "dark" : "light")}
            />
            <Switch
              name="shortcuts"
              label={copy.shortcuts}
              help={copy.shortcutsHelp}
              checked={shortcuts}
              onChange={setShortcuts}
            />
            <Switch
              name="emailNotifications"
              label={copy.emailNotifications}
              help={copy.emailNotificationsHelp}
              checked={emails}
              onChange={storeEmails}
            />
            <Switch
              name="newsletter"
              label={copy.newsletter}
              help={
                !account
                  ? copy.newsletterSignedOut
                  : account.emailVerified
                    ? copy.newsletterHelp
                    : copy.newsletterUnverified
              }
              defaultChecked={newsletter}
              disabled={!account?.emailVerified}
            />
            {account?.emailVerified ? (
              <>
                <input type="hidden" name="alertsShown" value="1" />
                <Switch name="alerts" label={copy.alerts} help={copy.alertsHelp} defaultChecked={alerts} />
                <Switch
                  name="eventReminders"
                  label={copy.eventReminders}
                  help={copy.eventRemindersHelp}
                  defaultChecked={eventReminders}
                />
                {alerts ? (
                  <div className="pb-4">
                    <input type="hidden" name="alertChoiceShown" value="1" />
                    <AlertChoiceFields ventures={ventures} choice={alertChoice} />
                  </div>
                ) : null}
              </>
            ) : null}
          </div>
        </Panel>
        <Panel id="security-heading" heading="Security">
          <div className="mt-4 flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
            <div>
              <h3 className="font-medium">{copy.twoFactor}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{copy.twoFactorHelp}</p>
              {account ? null : <SignInNote />}
            </div>
            <Link
              to={`${pages.help.path}?subject=${encodeURIComponent("Enable two-factor authentication")}#contact`}
              className={buttonClass("outline", "shrink-0")}
              aria-label="Enable two-factor authentication"
            >
              Enable
            </Link>
          </div>
          {account ? (
            <div className="mt-6 flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
              <div>
                <h3 className="font-medium">{copy.signOutEverywhere}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{copy.signOutEverywhereHelp}</p>
              </div>
              {/* Its own form (below), outside the settings form: forms cannot nest. */}
              <Button type="submit" form="sign-out-everywhere" variant="outline" className="shrink-0">
                {copy.signOutEverywhere}
              </Button>
            </div>
          ) : null}
          {account ? (
            <div className="mt-6 flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
              <div>
                <h3 className="font-medium">{copy.downloadData}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{copy.downloadDataHelp}</p>
              </div>
              {/* Its own form (below): the answer is a file, the page stays. */}
              <Button type="submit" form="download-my-data" variant="outline" className="shrink-0">
                {copy.downloadData}
              </Button>
            </div>
          ) : null}
          <div className="mt-6 flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
            <div>
              <h3 className="font-medium">{copy.deleteAccount}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{copy.deleteAccountHelp}</p>
              {account ? null : <SignInNote />}
            </div>
            {/* The confirmation is a page of its own, where the address is typed (signed out: sign in first). */}
            <Link to={ACCOUNT_PATHS.deleteAccount} className={buttonClass("destructive", "shrink-0")}>
              {copy.deleteAccount}
            </Link>
          </div>
        </Panel>
        {/* The answer beside the button that asked (and, with JavaScript, as a toast too). */}
        <div className="flex flex-wrap items-center justify-end gap-3">
          {/* Where the page lands after a save without JavaScript (the form's fragment, form-answer.tsx). */}
          <div id={answerId(SETTINGS_FORM)} tabIndex={-1} className="mr-auto scroll-mt-24 outline-none">
            <p role="status" className="wrap-anywhere text-sm font-medium" data-testid="settings-answer">
              {actionData?.message}
            </p>
            {account || actionData?.message ? null : <SignInNote text={copy.saveSignedOut} />}
          </div>
          <Button type="reset" variant="outline">
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save Changes"}
          </Button>
        </div>
      </Form>
      {account ? (
        <>
          {/* A full navigation: every page's data changes once the session has ended. */}
          <form id="sign-out-everywhere" method="post" action="/api/logout" hidden>
            <input type="hidden" name="everywhere" value="on" />
          </form>
          {/* A native post: the answer is a download (Content-Disposition), the page stays. */}
          <form id="download-my-data" method="post" action={ACCOUNT_PATHS.downloadData} hidden />
        </>
      ) : null}
    </>
  );
}

/** Beside a control a visitor sees but only a member can use: what it needs, and the way in. */
function SignInNote({ text = copy.needsMember }: { text?: string }) {
  return (
    <p className="mt-2 text-sm text-muted-foreground" data-testid="sign-in-note">
      {text}{" "}
      <a href={`/api/login?returnTo=${page.path}`} className="text-primary underline underline-offset-4">
        Log in
      </a>
    </p>
  );
}
