import info.vannier.gotha.ExternalDocument;
import info.vannier.gotha.Gotha;
import info.vannier.gotha.TournamentInterface;

import java.io.File;

/**
 * OpenGotha's own EGF tournament table (the ".h9" file of Publish .. Export .. EGF) of a
 * tournament file, written by {@code ExternalDocument.generateH9File} exactly as its Publish
 * window calls it. Not part of the package: a harness compiled against OpenGotha's source (see
 * README.md), to compare {@code export-egd} with OpenGotha's table of the same event.
 *
 * <p>Usage: {@code java -Djava.awt.headless=true -cp <og classes>:<this> OpenGothaH9 FILE.xml
 * OUT.h9 [--keep-by-def]}. The window asks whether to keep results by default (forfeits);
 * without {@code --keep-by-def} the answer is No, which writes each such game as {@code 0=}.
 */
public final class OpenGothaH9 {

    private OpenGothaH9() {
    }

    public static void main(String[] args) throws Exception {
        boolean keep = args.length == 3 && args[2].equals("--keep-by-def");
        if (args.length != 2 && !keep) {
            System.err.println("usage: OpenGothaH9 FILE.xml OUT.h9 [--keep-by-def]");
            System.exit(2);
        }
        TournamentInterface t = Gotha.getTournamentFromFile(new File(args[0]));
        if (t == null) {
            System.err.println("OpenGotha could not read " + args[0]);
            System.exit(1);
        }
        File out = new File(args[1]);
        ExternalDocument.generateH9File(t, out, keep);
        if (!out.isFile()) {
            System.err.println("OpenGotha wrote no table to " + args[1]);
            System.exit(1);
        }
        System.exit(0);
    }
}
