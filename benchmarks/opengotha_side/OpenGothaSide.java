import info.vannier.gotha.Game;
import info.vannier.gotha.Gotha;
import info.vannier.gotha.PairingParameterSet;
import info.vannier.gotha.Player;
import info.vannier.gotha.TournamentInterface;

import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * OpenGotha's own pairing of every round (2 and later, or from --first) of an OpenGotha file, from
 * the state the file records before that round. Not part of the package: a benchmark harness
 * compiled against OpenGotha's source (see README.md).
 *
 * <p>Usage: {@code java -Djava.awt.headless=true -cp <og classes>:<this> OpenGothaSide FILE.xml
 * [--club file|on|off] [--first R] [--repeat K]} prints one JSON document on stdout:
 *
 * <pre>
 * {"file": "x.xml", "opengotha": "3.51", "club": "file", "rounds": [
 *   {"round": 2, "players": 17, "bye": "KEY" | null, "seconds": 0.0123,
 *    "games": [{"white": "KEY", "black": "KEY", "whiteName": "..", "blackName": "..",
 *               "handicap": 0}, ...]}, ...]}
 * </pre>
 *
 * <p>{@code --first R}: the first round to pair (default 2). {@code --repeat K}: each round is
 * paired 1 + K times, each on a fresh copy, and "seconds" is the least time of the last K (the
 * first warms the JVM up); by default once, and "seconds" is that pairing's time. The time runs
 * from asking for the players to pair to the games, as the Pair button does.
 *
 * where KEY is OpenGotha's key string of the player (family + given name, blanks removed, upper
 * case), the identity games and byes use in the file itself.
 *
 * <p>For each round r (1-based, r >= 2) that has games in the file, a fresh copy of the
 * tournament is read with OpenGotha's own import ({@code Gotha.getTournamentFromFile}), then:
 * games and bye players of rounds >= r are removed; round r's participation is set to exactly
 * the players the file records in round r (in a game, or as bye player); and round r is paired
 * the way the Games .. Pair window does it with every pairable player selected: if their number
 * is odd, {@code chooseAByePlayer} picks the bye and removes it, then {@code
 * makeAutomaticPairing} pairs the rest. Every parameter is the file's own, except with {@code
 * --club on} (club avoidance as OpenGotha's McMahon default sets it: avoidSameGeo equal to
 * minimizeScoreDifference, preferMMSDiffRatherThanSameClub 3 where the file has 0) or {@code
 * --club off} (avoidSameGeo 0), to compare with a pairer's club on / club off figures.
 *
 * <p>One repair before the import: OpenGotha 3.51.02 saves files without the {@code dataVersion}
 * attribute, and 3.51 / 3.51.02 read a file without it as the old format 200 (games found by a
 * letters-only name, ratings shifted by 2050), which drops every game of a player whose name
 * has a hyphen or an underscore. Such a file is read from a copy marked {@code
 * dataVersion="201"}, the format 3.51.02 writes; and the import is checked against the file,
 * round by round.
 */
public final class OpenGothaSide {

    private OpenGothaSide() {
    }

    public static void main(String[] args) throws Exception {
        String club = "file";
        int first = 2;
        int repeat = 0;
        boolean usage = args.length % 2 != 1;
        for (int k = 1; k + 1 < args.length && !usage; k += 2) {
            switch (args[k]) {
                case "--club" -> club = args[k + 1];
                case "--first" -> first = Integer.parseInt(args[k + 1]);
                case "--repeat" -> repeat = Integer.parseInt(args[k + 1]);
                default -> usage = true;
            }
        }
        if (usage || !List.of("file", "on", "off").contains(club) || first < 1 || repeat < 0) {
            System.err.println(
                    "usage: OpenGothaSide FILE.xml [--club file|on|off] [--first R] [--repeat K]");
            System.exit(2);
        }
        File original = new File(args[0]);
        File file = withDataVersion(original);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        TournamentInterface loaded = load(file);
        checkImport(original, loaded);
        int rounds = loaded.getTournamentParameterSet().getGeneralParameterSet().getNumberOfRounds();
        List<String> done = new ArrayList<>();
        for (int r = first - 1; r < rounds; r++) { // 0-based: round 2 of the file is r = 1
            if (loaded.gamesList(r).isEmpty()) {
                continue;
            }
            done.add(pairRound(file, r, club, repeat));
        }
        out.println("{\"file\": " + json(original.getName()) + ", \"opengotha\": "
                + json(Gotha.getGothaFullVersionNumber()) + ", \"club\": " + json(club)
                + ", \"rounds\": [\n"
                + String.join(",\n", done) + "\n]}");
        // Tournament is a UnicastRemoteObject: its RMI export keeps the JVM alive.
        System.exit(0);
    }

    /** The file itself, or a temporary copy marked dataVersion="201" when it has no version. */
    private static File withDataVersion(File file) throws Exception {
        Document doc = parse(file);
        Element root = doc.getDocumentElement();
        if (root.hasAttribute("dataVersion")) {
            return file;
        }
        root.setAttribute("dataVersion", "201");
        File copy = File.createTempFile("opengotha-side-", ".xml");
        copy.deleteOnExit();
        TransformerFactory.newInstance().newTransformer()
                .transform(new DOMSource(doc), new StreamResult(copy));
        return copy;
    }

    private static Document parse(File file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file);
    }

    /** Fails unless OpenGotha read as many games and bye players per round as the file holds. */
    private static void checkImport(File file, TournamentInterface t) throws Exception {
        Map<Integer, Integer> games = new HashMap<>();
        NodeList nodes = parse(file).getElementsByTagName("Game");
        for (int i = 0; i < nodes.getLength(); i++) {
            int r = Integer.parseInt(((Element) nodes.item(i)).getAttribute("roundNumber")) - 1;
            games.merge(r, 1, Integer::sum);
        }
        Map<Integer, Integer> byes = new HashMap<>();
        nodes = parse(file).getElementsByTagName("ByePlayer");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (e.hasAttribute("player")) {
                byes.merge(Integer.parseInt(e.getAttribute("roundNumber")) - 1, 1, Integer::sum);
            }
        }
        for (int r = 0; r < t.getByePlayers().length; r++) {
            int read = t.gamesList(r).size();
            int bye = t.getByePlayer(r) == null ? 0 : 1;
            int fileGames = games.getOrDefault(r, 0);
            int fileByes = byes.getOrDefault(r, 0);
            if (read != fileGames || bye != fileByes) {
                throw new IllegalStateException(file.getName() + " round " + (r + 1)
                        + ": OpenGotha read " + read + " games and " + bye + " bye, the file has "
                        + fileGames + " and " + fileByes);
            }
        }
    }

    private static TournamentInterface load(File file) throws Exception {
        TournamentInterface t = Gotha.getTournamentFromFile(file);
        if (t == null) {
            throw new IllegalStateException("OpenGotha could not read " + file);
        }
        return t;
    }

    /**
     * Pairs 0-based round r of a fresh copy of the file; returns the round's JSON object. With
     * {@code repeat} K > 0 the round is paired 1 + K times, each on a fresh copy, and "seconds"
     * is the least time of the last K (the first warms the JVM up); with 0, of the one pairing.
     */
    private static String pairRound(File file, int r, String club, int repeat) throws Exception {
        Paired paired = null;
        double seconds = Double.POSITIVE_INFINITY;
        for (int k = 0; k <= repeat; k++) {
            paired = pairOnce(file, r, club);
            if (k > 0 || repeat == 0) {
                seconds = Math.min(seconds, paired.seconds);
            }
        }
        List<String> items = new ArrayList<>();
        for (Game g : paired.games) {
            Player w = g.getWhitePlayer();
            Player b = g.getBlackPlayer();
            items.add("    {\"white\": " + json(w.getKeyString()) + ", \"black\": "
                    + json(b.getKeyString()) + ", \"whiteName\": " + json(w.fullName())
                    + ", \"blackName\": " + json(b.fullName()) + ", \"handicap\": "
                    + g.getHandicap() + "}");
        }
        return "  {\"round\": " + (r + 1) + ", \"players\": " + paired.players + ", \"bye\": "
                + (paired.bye == null ? "null" : json(paired.bye)) + ", \"seconds\": "
                + String.format(java.util.Locale.ROOT, "%.4f", seconds) + ", \"games\": [\n"
                + String.join(",\n", items) + "\n  ]}";
    }

    /** One pairing of a round: its games, bye, players and the time OpenGotha took. */
    private record Paired(List<Game> games, String bye, int players, double seconds) {
    }

    private static Paired pairOnce(File file, int r, String club) throws Exception {
        TournamentInterface t = load(file);
        setClubAvoidance(t.getTournamentParameterSet().getPairingParameterSet(), club);
        Set<String> present = playedIn(t, r);
        for (Game g : t.gamesList()) {
            if (g.getRoundNumber() >= r) {
                t.removeGame(g);
            }
        }
        for (int k = r; k < t.getByePlayers().length; k++) {
            t.unassignByePlayer(k);
        }
        for (Player p : t.playersList()) {
            boolean in = present.contains(p.getKeyString());
            p.setParticipating(r, in);
            if (in && !p.getRegisteringStatus().equals("FIN")) {
                System.err.println(file.getName() + " round " + (r + 1) + ": " + p.getKeyString()
                        + " played but was " + p.getRegisteringStatus() + "; set to FIN");
                p.setRegisteringStatus("FIN");
            }
        }
        // What the GUI does after any change: scores are recomputed on the next request.
        t.setLastTournamentModificationTime(System.currentTimeMillis());

        // Timed: what the Pair button does, from the players to pair to the games.
        long start = System.nanoTime();
        ArrayList<Player> toPair = t.alNotPairedPlayers(r);
        String bye = null;
        if (toPair.size() % 2 != 0) {
            t.chooseAByePlayer(toPair, r);
            Player byePlayer = t.getByePlayer(r);
            bye = byePlayer.getKeyString();
            toPair.removeIf(p -> p.hasSameKeyString(byePlayer));
        }
        ArrayList<Game> games = t.makeAutomaticPairing(toPair, r);
        double seconds = (System.nanoTime() - start) / 1e9;

        Set<String> pairable = new TreeSet<>();
        for (Player p : t.alNotPairedPlayers(r)) {
            pairable.add(p.getKeyString());
        }
        if (bye != null) {
            pairable.add(bye);
        }
        if (!pairable.equals(new TreeSet<>(present))) {
            throw new IllegalStateException(file.getName() + " round " + (r + 1)
                    + ": pairable players differ from those who played");
        }
        return new Paired(games, bye, present.size(), seconds);
    }

    private static void setClubAvoidance(PairingParameterSet pps, String club) {
        if (club.equals("on")) {
            pps.setPaiSeAvoidSameGeo(pps.getPaiMaMinimizeScoreDifference());
            if (pps.getPaiSePreferMMSDiffRatherThanSameClub() == 0) {
                pps.setPaiSePreferMMSDiffRatherThanSameClub(3);
            }
        } else if (club.equals("off")) {
            pps.setPaiSeAvoidSameGeo(0);
        }
    }

    /** Key strings of the players in a game or bye in 0-based round r, as the file records. */
    private static Set<String> playedIn(TournamentInterface t, int r) throws Exception {
        Set<String> keys = new LinkedHashSet<>();
        for (Game g : t.gamesList(r)) {
            keys.add(g.getWhitePlayer().getKeyString());
            keys.add(g.getBlackPlayer().getKeyString());
        }
        Player bye = t.getByePlayer(r);
        if (bye != null) {
            keys.add(bye.getKeyString());
        }
        return keys;
    }

    private static String json(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
