// Questions in a room (docs/decisions/119): the investor's `question` reaches the owner's outbox,
// the owner's `answer` reaches the asker and their room, and with `faq` the room's FAQ, which the
// other investor sees without the asker's name, firm or address. Bad input, a member's and a
// cross-site POST store nothing.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { loader as roomAdmin } from "~/routes/admin.rooms_.$id";
import { action as roomAction } from "~/routes/rooms.$id._index";
import { loader as recordPage } from "~/routes/rooms.$id.record";
import { action as exportData } from "~/routes/settings_.data";
import { ADMIN, signedIn } from "./route-args";
import {
  change,
  clearRooms,
  count,
  CROSS_SITE,
  deckId,
  enter,
  get,
  invite,
  outbox,
  post,
  roomData,
  roomWithDeck,
} from "./room-fixtures";

beforeEach(clearRooms);

interface RoomPage {
  questions: { question: string; answer: string | null; document: string | null }[];
  faq: { question: string; answer: string }[];
  documents: { id: string; title: string }[];
}

async function twoInvestors() {
  const { admin, id } = await roomWithDeck();
  const ada = await enter(
    id,
    await invite(admin, id, "ada@northwind.example", "Ada Asker", "Northwind Capital"),
    "ada@northwind.example",
    "Ada Asker",
  );
  const bo = await enter(
    id,
    await invite(admin, id, "bo@southwind.example", "Bo Other", "Southwind"),
    "bo@southwind.example",
    "Bo Other",
  );
  return { admin, id, ada, bo };
}

describe("questions in a room", () => {
  it("a question reaches the owner; the answer with faq reaches the asker and the other investor's FAQ without who asked", async () => {
    const { admin, id, ada, bo } = await twoInvestors();
    const deck = await deckId();
    const asked = await post(
      roomAction,
      `/rooms/${id}`,
      { intent: "ask", question: "What is the burn rate per month?", document: deck },
      ada,
    );
    expect(asked.status).toBe(303);
    expect(asked.headers.get("Location")).toContain(`/rooms/${id}`);
    const [toOwner, ...more] = await outbox("room-question");
    expect(more).toEqual([]);
    expect(toOwner).toMatchObject({ recipient: ADMIN, subject: "Question in FiscalMe seed round" });
    expect(toOwner!.text).toContain("What is the burn rate per month?");
    expect(toOwner!.text).toContain("Ada Asker (Northwind Capital), ada@northwind.example");
    expect(toOwner!.text).toContain("FiscalMe Pitch Deck");
    expect(toOwner!.text).toContain(`https://afx.test/admin/rooms/${id}`);

    // The asker sees their question; the other investor sees nothing of it yet.
    const mine = await roomData<RoomPage>(id, ada);
    expect(mine.questions).toEqual([
      expect.objectContaining({
        question: "What is the burn rate per month?",
        answer: null,
        document: "FiscalMe Pitch Deck",
      }),
    ]);
    const other = await roomData<RoomPage>(id, bo);
    expect(other.questions).toEqual([]);
    expect(other.faq).toEqual([]);

    // The owner's page lists it, with who asked.
    const page = await (
      await get(roomAdmin, `/admin/rooms/${id}`, admin)
    ).json<{
      questions: { id: number; question: string; email: string; answer: string | null }[];
    }>();
    expect(page.questions).toEqual([
      expect.objectContaining({
        question: "What is the burn rate per month?",
        email: "ada@northwind.example",
        answer: null,
      }),
    ]);
    const question = String(page.questions[0]!.id);

    // A member's and a cross-site answer, and an empty one, change nothing.
    const member = await signedIn("member@example.com");
    expect((await change(member, id, { intent: "answer", question, answer: "x", faq: "on" })).status).toBe(404);
    expect((await change(admin, id, { intent: "answer", question, answer: "x", faq: "on" }, CROSS_SITE)).status).toBe(
      403,
    );
    const empty = await change(admin, id, { intent: "answer", question, answer: "  ", faq: "on" });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain("Please enter an answer.");
    // A question of no room of this page: unknown.
    expect((await change(admin, id, { intent: "answer", question: "999999", answer: "x" })).status).toBe(404);
    expect(await outbox("room-answer")).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM room_questions WHERE answer IS NOT NULL").first("n")).toBe(
      0,
    );

    const answered = await change(admin, id, {
      intent: "answer",
      question,
      answer: "About 80k EUR a month, falling.",
      faq: "on",
    });
    expect(answered.status).toBe(303);
    const toAsker = await outbox("room-answer");
    expect(toAsker).toHaveLength(1);
    expect(toAsker[0]).toMatchObject({ recipient: "ada@northwind.example" });
    expect(toAsker[0]!.text).toContain("About 80k EUR a month, falling.");
    expect(toAsker[0]!.text).toContain(`https://afx.test/rooms/${id}`);
    expect(await env.DB.prepare("SELECT action FROM audit_log WHERE action = 'room.answer'").first("action")).toBe(
      "room.answer",
    );

    // In the asker's room, and in the other investor's FAQ without the asker's name, firm or address.
    expect((await roomData<RoomPage>(id, ada)).questions[0]!.answer).toBe("About 80k EUR a month, falling.");
    const seen = await roomData<RoomPage>(id, bo);
    expect(seen.faq).toEqual([
      {
        id: expect.any(Number),
        question: "What is the burn rate per month?",
        answer: "About 80k EUR a month, falling.",
      },
    ]);
    expect(seen.questions).toEqual([]);
    const text = JSON.stringify(seen);
    for (const trace of ["Ada Asker", "Northwind", "ada@northwind.example"]) expect(text).not.toContain(trace);

    // The asker's own record holds the question and its answer.
    const record = await get(recordPage, `/rooms/${id}/record?format=json`, ada);
    expect(record.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    const json = await record.json<{ questions: { question: string; answer: string }[] }>();
    expect(json.questions).toEqual([
      expect.objectContaining({
        question: "What is the burn rate per month?",
        answer: "About 80k EUR a month, falling.",
      }),
    ]);
  });

  it("an answer without faq stays the asker's", async () => {
    const { admin, id, ada, bo } = await twoInvestors();
    expect(
      (await post(roomAction, `/rooms/${id}`, { intent: "ask", question: "Who leads the round?" }, ada)).status,
    ).toBe(303);
    const question = String((await env.DB.prepare("SELECT id FROM room_questions").first<{ id: number }>())!.id);
    expect((await change(admin, id, { intent: "answer", question, answer: "We do." })).status).toBe(303);
    expect((await roomData<RoomPage>(id, ada)).questions[0]!.answer).toBe("We do.");
    const other = await roomData<RoomPage>(id, bo);
    expect(other.faq).toEqual([]);
    expect(JSON.stringify(other)).not.toContain("Who leads the round?");
  });

  it.each([
    ["an empty question", { question: "   " }, "Please enter a question."],
    ["one too long", { question: "x".repeat(2001) }, "Please keep the question to 2,000 characters."],
    [
      "a document not in the room",
      { question: "Why?", document: "not-a-room-document" },
      "Please choose one of the room's documents.",
    ],
  ])("refuses %s with a 400 and stores nothing", async (_, form, message) => {
    const { id, ada } = await twoInvestors();
    const res = await post(roomAction, `/rooms/${id}`, { intent: "ask", ...form }, ada);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(message);
    expect(await count("room_questions")).toBe(0);
    expect(await outbox("room-question")).toEqual([]);
  });

  it("a cross-site POST and a visitor without the room's session store nothing", async () => {
    const { id, ada } = await twoInvestors();
    const cross = await post(roomAction, `/rooms/${id}`, { intent: "ask", question: "Hi?" }, ada, { id }, CROSS_SITE);
    expect(cross.status).toBe(403);
    expect((await post(roomAction, `/rooms/${id}`, { intent: "ask", question: "Hi?" })).status).toBe(404);
    // A member of the site is no investor of the room.
    expect(
      (await post(roomAction, `/rooms/${id}`, { intent: "ask", question: "Hi?" }, await signedIn("member@example.com")))
        .status,
    ).toBe(404);
    expect(await count("room_questions")).toBe(0);
    expect(await outbox("room-question")).toEqual([]);
  });

  it("the member's data export under the same verified address holds the investor's room record", async () => {
    const { id, ada } = await twoInvestors();
    await post(roomAction, `/rooms/${id}`, { intent: "ask", question: "Is there a lead investor?" }, ada);
    const member = await signedIn("ada@northwind.example", "Ada Asker");
    const res = await post(exportData, "/settings/data", {}, member, {});
    expect(res.status).toBe(200);
    const doc = await res.json<{
      investorRooms: { room: string; firm: string; record: { questions: { question: string }[]; ndas: unknown[] } }[];
    }>();
    expect(doc.investorRooms).toEqual([
      expect.objectContaining({ room: "FiscalMe seed round", firm: "Northwind Capital" }),
    ]);
    expect(doc.investorRooms[0]!.record.questions.map((q) => q.question)).toEqual(["Is there a lead investor?"]);
    expect(doc.investorRooms[0]!.record.ndas).toHaveLength(1);
    // Another member's export holds none of it.
    const other = await post(exportData, "/settings/data", {}, await signedIn("member@example.com"), {});
    expect((await other.json<{ investorRooms: unknown[] }>()).investorRooms).toEqual([]);
  });
});
