import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Switch } from "~/components/ui/switch";
import { settingsCopy } from "~/content/copy";
import { useRootData } from "~/root-data";
import { useShortcutsOn } from "~/utils/shortcuts-setting";
import { shortcutsFor } from "./shortcuts";

/** The keyboard-shortcuts dialog, loaded at the first Space. */
export default function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [on, setOn] = useShortcutsOn();
  const shortcuts = shortcutsFor(useRootData()?.ventures ?? []);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" data-testid="shortcuts-dialog">
        <DialogHeader>
          <DialogTitle>Keyboard Shortcuts</DialogTitle>
          <DialogDescription>
            Press Space to open this list and Escape to close it. Shortcuts pause while you type; switch them off below
            or in Settings to leave every key, Ctrl/⌘ + F included, to your browser.
          </DialogDescription>
        </DialogHeader>
        <Switch
          name="shortcuts"
          label={settingsCopy.shortcuts}
          help={settingsCopy.shortcutsHelp}
          checked={on}
          onChange={setOn}
        />
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          {shortcuts.map((s) => (
            <div key={s.keys} className="contents">
              <dt>
                <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs">{s.keys}</kbd>
              </dt>
              <dd className="text-muted-foreground">{s.label}</dd>
            </div>
          ))}
          <div className="contents">
            <dt>
              <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs">Escape</kbd>
            </dt>
            <dd className="text-muted-foreground">Close this dialog</dd>
          </div>
        </dl>
      </DialogContent>
    </Dialog>
  );
}
