import info.vannier.gotha.Game;
import info.vannier.gotha.Gotha;
import info.vannier.gotha.Player;
import info.vannier.gotha.ScoredPlayer;
import info.vannier.gotha.TournamentInterface;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What OpenGotha itself reads from a tournament file, one tab-separated line per fact:
 * "P key agaId rank smms registeringStatus participating", "G round table white black
 * handicap result", "B round key", "S key mms nbw" (McMahon score and wins after the last round with
 * games, in half points). For checking export-opengotha: docs/opengotha.md, "Writing".
 */
public class OpenGothaRead {
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        TournamentInterface t = Gotha.getTournamentFromFile(new File(args[0]));
        if (t == null) {
            System.err.println("OpenGotha could not read " + args[0]);
            System.exit(1);
        }
        var gps = t.getTournamentParameterSet().getGeneralParameterSet();
        for (Player p : t.playersList()) {
            StringBuilder flags = new StringBuilder();
            for (boolean b : p.getParticipating()) flags.append(b ? '1' : '0');
            out.println(String.join("\t", "P", p.getKeyString(), p.getAgaId(),
                    "" + p.getRank(), "" + p.smms(gps), p.getRegisteringStatus(),
                    flags.substring(0, gps.getNumberOfRounds())));
        }
        int last = -1;
        for (int r = 0; r < gps.getNumberOfRounds(); r++) {
            for (Game g : t.gamesList(r)) {
                last = r;
                out.println(String.join("\t", "G", "" + (r + 1), "" + (g.getTableNumber() + 1),
                        g.getWhitePlayer().getKeyString(), g.getBlackPlayer().getKeyString(),
                        "" + g.getHandicap(), "" + g.getResult()));
            }
            Player bye = t.getByePlayer(r);
            if (bye != null) out.println("B\t" + (r + 1) + "\t" + bye.getKeyString());
        }
        if (last >= 0) {
            List<ScoredPlayer> scored = new ArrayList<>(t.orderedScoredPlayersList(
                    last, t.getTournamentParameterSet().getPlacementParameterSet()));
            for (ScoredPlayer sp : scored) {
                out.println("S\t" + sp.getKeyString() + "\t"
                        + sp.getMMSX2(last) + "\t" + sp.getNBWX2(last));
            }
        }
        System.exit(0);
    }
}
