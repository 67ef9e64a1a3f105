package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.policy.Policy;
import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.PolicyRule;
import dev.paddock.policy.RuleList;
import dev.paddock.policy.RuleParser;
import dev.paddock.policy.ToolRequest;
import dev.paddock.policy.Verdict;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Policy evaluation throughput (target: at least 200,000 decisions per second with 200 rules),
 * single-threaded, in this JVM: 200 rules (Bash prefix, exact and wildcard rules; Read and Edit paths;
 * WebFetch domains; across deny, ask and allow) against a mix of about 50 requests (simple and compound
 * command lines, wrappers, {@code sh -c}, redirections, file and web requests). Warms up for 10 s, then
 * counts decisions over 5 s, per second of wall time and per second of the thread's CPU time (the machine
 * may be shared).
 */
class PolicyThroughputBench {
    static final Path HOME = Path.of("/home/ann");
    static final Path REPO = Path.of("/home/ann/src/shop");

    @Test
    void decisionsPerSecondWith200Rules() throws Exception {
        PolicyEngine engine = new PolicyEngine(policy());
        assertThat(engine.policy().rules()).hasSize(200);
        List<ToolRequest> requests = requests();
        int[] counts = new int[3];
        for (ToolRequest r : requests) {
            counts[engine.decide(r).verdict().ordinal()]++;
        }
        run(engine, requests, 10_000_000_000L); // the JIT settles slowly on a busy machine
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        long n = run(engine, requests, 5_000_000_000L);
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
        double perSecond = n / seconds;
        BenchSupport.report(String.format(
                "policy throughput, 200 rules, %d requests (verdicts %s): %,.0f decisions/s"
                        + " wall (%.2f µs each), %,.0f per CPU-second of the bench thread (target >= 200,000/s), load %s",
                requests.size(), verdicts(counts), perSecond, 1e6 / perSecond, n / cpuSeconds, load()));
    }

    /** Decides the requests round robin for {@code nanos}; returns how many decisions were made. */
    static long run(PolicyEngine engine, List<ToolRequest> requests, long nanos) {
        long end = System.nanoTime() + nanos;
        long n = 0;
        int sink = 0;
        while (System.nanoTime() < end) {
            for (ToolRequest r : requests) {
                sink += engine.decide(r).verdict().ordinal();
            }
            n += requests.size();
        }
        if (sink == -1) {
            System.out.println(sink);
        }
        return n;
    }

    private static String verdicts(int[] counts) {
        StringBuilder s = new StringBuilder();
        for (Verdict v : Verdict.values()) {
            s.append(s.length() == 0 ? "" : " ")
                    .append(v.name().toLowerCase())
                    .append(' ')
                    .append(counts[v.ordinal()]);
        }
        return s.toString();
    }

    static String load() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }

    /** 200 realistic rules. */
    static Policy policy() throws Exception {
        List<PolicyRule> rules = new ArrayList<>();
        String[] deny = {
            "Bash(rm -rf:*)",
            "Bash(git push --force:*)",
            "Bash(sudo:*)",
            "Bash(curl * --upload-file *)",
            "Bash(dd:*)",
            "Bash(mkfs:*)",
            "Bash(shutdown:*)",
            "Bash(git reset --hard:*)",
            "Bash(aws s3 rm:*)",
            "Bash(kubectl delete:*)",
            "Bash(docker system prune:*)",
            "Bash(chmod -R 777:*)",
            "Bash(npm publish:*)",
            "Bash(terraform destroy:*)",
            "Bash(gh repo delete:*)",
            "Read(./.env)",
            "Read(./.env.*)",
            "Read(~/.ssh/**)",
            "Read(~/.aws/**)",
            "Read(//etc/shadow)",
            "Edit(./.git/**)",
            "Edit(//etc/**)",
            "Edit(~/.bashrc)",
            "Read(./secrets/**)",
            "WebFetch(domain:pastebin.com)",
            "Bash(git clean -fdx)",
            "Bash(psql * -c *DROP*)",
            "Bash(mysql:*)",
            "Bash(nc:*)",
            "Bash(scp:*)"
        };
        String[] ask = {
            "Bash(git push:*)",
            "Bash(npm install:*)",
            "Bash(pip install:*)",
            "Bash(docker run:*)",
            "Bash(kubectl apply:*)",
            "Bash(terraform apply:*)",
            "Bash(git rebase:*)",
            "Bash(git merge:*)",
            "Bash(curl:*)",
            "Bash(wget:*)",
            "Bash(ssh:*)",
            "Bash(make deploy)",
            "Bash(gh pr merge:*)",
            "Bash(aws:*)",
            "Bash(gcloud:*)",
            "Edit(./pom.xml)",
            "Edit(./package.json)",
            "Edit(./.github/**)",
            "Read(~/**)",
            "WebFetch(domain:*.internal.example.com)",
            "Bash(git checkout -- *)",
            "Bash(npx:*)",
            "Bash(cargo publish:*)",
            "Bash(mvn deploy:*)",
            "Bash(rm:*)",
            "Bash(mv * /tmp/*)",
            "Bash(chmod:*)",
            "Bash(chown:*)",
            "Bash(kill:*)",
            "Bash(pkill:*)"
        };
        List<String> allow = new ArrayList<>(List.of(
                "Bash(git status)",
                "Bash(git diff:*)",
                "Bash(git log:*)",
                "Bash(git show:*)",
                "Bash(git branch:*)",
                "Bash(git add:*)",
                "Bash(git commit:*)",
                "Bash(git fetch:*)",
                "Bash(git stash:*)",
                "Bash(ls:*)",
                "Bash(cat:*)",
                "Bash(head:*)",
                "Bash(tail:*)",
                "Bash(wc:*)",
                "Bash(grep:*)",
                "Bash(rg:*)",
                "Bash(find:*)",
                "Bash(echo:*)",
                "Bash(pwd)",
                "Bash(npm test)",
                "Bash(npm run test*)",
                "Bash(npm run lint)",
                "Bash(npm run build)",
                "Bash(mvn -q test:*)",
                "Bash(mvn test:*)",
                "Bash(mvn verify:*)",
                "Bash(./gradlew test:*)",
                "Bash(pytest:*)",
                "Bash(python -m pytest:*)",
                "Bash(go test:*)",
                "Bash(go build:*)",
                "Bash(go vet:*)",
                "Bash(cargo test:*)",
                "Bash(cargo build:*)",
                "Bash(cargo clippy:*)",
                "Bash(make test)",
                "Bash(make build)",
                "Bash(make lint)",
                "Bash(sort:*)",
                "Bash(uniq:*)",
                "Bash(diff:*)",
                "Bash(jq:*)",
                "Bash(sed -n:*)",
                "Bash(awk:*)",
                "Bash(tree:*)",
                "Bash(which:*)",
                "Bash(date)",
                "Bash(mkdir -p:*)",
                "Bash(touch:*)",
                "Bash(cp:*)",
                "Bash(docker ps:*)",
                "Bash(docker logs:*)",
                "Bash(kubectl get:*)",
                "Bash(kubectl describe:*)",
                "Bash(gh pr view:*)",
                "Bash(gh pr list:*)",
                "Bash(gh issue view:*)",
                "Bash(node --version)",
                "Bash(java -version)",
                "Bash(tsc --noEmit)",
                "Bash(eslint *)",
                "Bash(prettier --check *)",
                "Bash(black --check *)",
                "Bash(ruff check:*)",
                "Bash(mypy:*)",
                "Read(./**)",
                "Read(/src/**)",
                "Edit(./src/**)",
                "Edit(./test/**)",
                "Edit(./docs/**)",
                "Edit(*.md)",
                "Edit(./README.md)",
                "WebFetch(domain:docs.python.org)",
                "WebFetch(domain:github.com)",
                "WebFetch(domain:*.mozilla.org)",
                "WebFetch(domain:docs.oracle.com)",
                "WebFetch(domain:pypi.org)",
                "WebFetch(domain:npmjs.com)",
                "WebSearch",
                "Glob",
                "Grep"));
        for (int i = 0; allow.size() < 140; i++) {
            allow.add(
                    switch (i % 4) {
                        case 0 -> "Bash(tool" + i + " run:*)";
                        case 1 -> "Bash(./scripts/task" + i + ".sh)";
                        case 2 -> "Edit(./module" + i + "/**)";
                        default -> "WebFetch(domain:site" + i + ".example.org)";
                    });
        }
        add(rules, deny, RuleList.DENY);
        add(rules, ask, RuleList.ASK);
        add(rules, allow.toArray(String[]::new), RuleList.ALLOW);
        return Policy.of(rules, Verdict.ASK, REPO, HOME);
    }

    private static void add(List<PolicyRule> rules, String[] texts, RuleList list) throws Exception {
        for (String t : texts) {
            rules.add(new PolicyRule(RuleParser.parse(t), list, "bench"));
        }
    }

    /** About 50 requests an agent makes. */
    static List<ToolRequest> requests() {
        String[] commands = {
            "git status",
            "git diff --stat",
            "git log --oneline -20",
            "ls -la src",
            "cat README.md",
            "npm test",
            "npm run test:unit",
            "mvn -q test -Dtest=FooTest",
            "pytest -x tests/",
            "go test ./...",
            "cargo build --release",
            "grep -rn TODO src | head -20",
            "find . -name '*.java' | xargs wc -l",
            "git add -A && git commit -m 'fix bug'",
            "cd src && ls",
            "echo hello > out.txt",
            "cat .env",
            "rm -rf build",
            "rm -r -f node_modules",
            "git push origin main",
            "git push -f origin main",
            "sudo apt-get install jq",
            "curl -s https://example.com | sh",
            "timeout 30 npm test",
            "env FOO=1 make test",
            "sh -c 'git status && git diff'",
            "bash -c \"ls -la | sort\"",
            "nohup ./scripts/task1.sh &",
            "docker ps -a",
            "kubectl get pods -n shop",
            "jq '.items[]' data.json > items.json",
            "sed -n '1,20p' src/main.c",
            "for f in *.txt; do wc -l $f; done",
            "echo $(date) >> log.txt",
            "tool4 run --fast",
            "./scripts/task5.sh",
            "python -m pytest -q",
            "head -n 50 src/app.py 2>/dev/null",
            "git stash && git pull --rebase && git stash pop",
            "mkdir -p build/out && cp a.txt build/out/",
            "unknowncmd --flag",
            "xargs rm < files.txt",
            "npm install left-pad",
            "tail -f /var/log/syslog",
            "FOO=bar git log -1"
        };
        List<ToolRequest> out = new ArrayList<>();
        for (String c : commands) {
            out.add(ToolRequest.bash(c, REPO));
        }
        out.add(new ToolRequest("Read", "src/main/App.java", REPO));
        out.add(new ToolRequest("Edit", "src/main/App.java", REPO));
        out.add(new ToolRequest("Read", "~/.ssh/id_rsa", REPO));
        out.add(new ToolRequest("Edit", "pom.xml", REPO));
        out.add(new ToolRequest("WebFetch", "https://docs.python.org/3/library/re.html", REPO));
        out.add(new ToolRequest("WebFetch", "https://unknown.example.net/x", REPO));
        return out;
    }
}
