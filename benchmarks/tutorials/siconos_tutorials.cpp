// siconos_tutorials.cpp — the Siconos side of benchmarks/tutorials: the
// models of examples/tutorials built on Siconos 4.4's kernel (Debian
// libsiconos-kernel-dev), each stepped by the kernel's own C++ loop
// (TimeStepping::run(), or computeOneStep() where the program adds
// contacts between steps), timed around that loop only.
//
//   siconos_tutorials NAME [--nodes N] [--steps N]
// prints "NAME seconds steps checksum" (checksum: a state entry at the end,
// to compare with ours). NAME: BouncingBallTS, ColumnOfBeadsTS,
// DoublePendulumResult, Woodpecker, ImpactingBar. The double pendulum's
// functions come from tut_plugin.so (tut_plugin.c, built beside this
// program), loaded by Siconos' plugin mechanism.
//
// Why C++ and not python3-siconos: the Python wrapper refuses a sparse mass
// matrix (SWIG asserts in LagrangianLinearTIDS' constructor), and the bar at
// 10^4 nodes cannot be dense (800 MB per matrix). The loop timed is the same
// C++ code sim.run() runs from Python.
#include <siconos/kernel/SiconosKernel.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static std::string plugin_dir;

static double seconds_since(std::chrono::steady_clock::time_point a)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

static SP::SiconosVector vec(std::initializer_list<double> x)
{
    SP::SiconosVector v(new SiconosVector((unsigned)x.size()));
    unsigned i = 0;
    for (double a : x) (*v)(i++) = a;
    return v;
}

// the ball of BouncingBallTS: y = z, e = 0.9, h = 0.005
static double bouncing_ball(long steps, double *check)
{
    const double m = 1, R = 0.1, g = 9.81, h = 0.005;
    SP::SimpleMatrix M(new SimpleMatrix(3, 3));
    (*M)(0, 0) = m; (*M)(1, 1) = m; (*M)(2, 2) = 0.4 * m * R * R;
    SP::LagrangianLinearTIDS ball(new LagrangianLinearTIDS(vec({1, 0, 0}), vec({0, 0, 0}), M));
    ball->setFExtPtr(vec({-m * g, 0, 0}));
    SP::SimpleMatrix H(new SimpleMatrix(1, 3));
    (*H)(0, 0) = 1;
    SP::Interaction inter(new Interaction(SP::NonSmoothLaw(new NewtonImpactNSL(0.9)),
                                          SP::Relation(new LagrangianLinearTIR(H))));
    SP::NonSmoothDynamicalSystem nsds(new NonSmoothDynamicalSystem(0, steps * h));
    nsds->insertDynamicalSystem(ball);
    nsds->link(inter, ball);
    SP::TimeStepping s(new TimeStepping(nsds, SP::TimeDiscretisation(new TimeDiscretisation(0, h)),
                                        SP::OneStepIntegrator(new MoreauJeanOSI(0.5)),
                                        SP::OneStepNSProblem(new LCP())));
    auto t0 = std::chrono::steady_clock::now();
    s->run();
    double secs = seconds_since(t0);
    *check = (*ball->q())(0);
    return secs;
}

// ten beads, contacts linked when their gap falls below 0.02 (C++ between steps)
static double column_of_beads(long steps, double *check)
{
    const int nb = 10;
    const double m = 1, R = 0.1, g = 9.81, h = 5e-4, alert = 0.02;
    SP::SimpleMatrix M(new SimpleMatrix(3, 3));
    (*M)(0, 0) = m; (*M)(1, 1) = m; (*M)(2, 2) = 0.6 * m * R * R;
    SP::NonSmoothDynamicalSystem nsds(new NonSmoothDynamicalSystem(0, steps * h));
    std::vector<SP::LagrangianLinearTIDS> b(nb);
    for (int i = 0; i < nb; i++) {
        b[i].reset(new LagrangianLinearTIDS(vec({1.0 + 0.25 * i, 0, 0}), vec({0, 0, 0}), M));
        b[i]->setFExtPtr(vec({-m * g, 0, 0}));
        nsds->insertDynamicalSystem(b[i]);
    }
    SP::NonSmoothLaw law(new NewtonImpactNSL(0.9));
    SP::SimpleMatrix Hg(new SimpleMatrix(1, 3)), Hp(new SimpleMatrix(1, 6));
    (*Hg)(0, 0) = 1; (*Hp)(0, 0) = -1; (*Hp)(0, 3) = 1;
    SP::SiconosVector bg = vec({-R}), bp = vec({-2 * R});
    SP::TimeStepping s(new TimeStepping(nsds, SP::TimeDiscretisation(new TimeDiscretisation(0, h)),
                                        SP::OneStepIntegrator(new MoreauJeanOSI(0.5)),
                                        SP::OneStepNSProblem(new LCP())));
    bool ground = false;
    std::vector<bool> pair(nb - 1, false);
    auto t0 = std::chrono::steady_clock::now();
    while (s->hasNextEvent()) {
        for (int i = 0; i < nb - 1; i++) {
            double zi = (*b[i]->q())(0), zj = (*b[i + 1]->q())(0);
            if (!ground && std::fabs(zi - R) < alert) {
                ground = true;
                nsds->link(SP::Interaction(new Interaction(law, SP::Relation(new LagrangianLinearTIR(Hg, bg)))), b[0]);
            }
            if (!pair[i] && std::fabs(zj - zi - 2 * R) < alert) {
                pair[i] = true;
                nsds->link(SP::Interaction(new Interaction(law, SP::Relation(new LagrangianLinearTIR(Hp, bp)))),
                           b[i], b[i + 1]);
            }
        }
        s->computeOneStep();
        s->nextStep();
    }
    double secs = seconds_since(t0);
    *check = (*b[nb - 1]->q())(0);
    return secs;
}

// double pendulum, functions in tut_plugin.so, theta = 0.500001, h = 5e-4
static double double_pendulum(long steps, double *check)
{
    const double h = 5e-4;
    std::string P = plugin_dir + "/tut_plugin";
    SP::LagrangianDS dp(new LagrangianDS(vec({0.1, 0.2}), vec({0, 0}), P + ":dp_mass"));
    dp->setComputeFGyrFunction(P, "dp_fgyr");
    dp->setComputeJacobianFGyrqFunction(P, "dp_jfgyrq");
    dp->setComputeJacobianFGyrqDotFunction(P, "dp_jfgyrv");
    dp->setComputeFIntFunction(P, "dp_fint");
    dp->setComputeJacobianFIntqFunction(P, "dp_jfintq");
    dp->setComputeJacobianFIntqDotFunction(P, "dp_jfintv");
    SP::Interaction i0(new Interaction(SP::NonSmoothLaw(new NewtonImpactNSL(1.0)),
                                       SP::Relation(new LagrangianScleronomousR(P + ":dp_h0", P + ":dp_g0"))));
    SP::Interaction i1(new Interaction(SP::NonSmoothLaw(new NewtonImpactNSL(0.0)),
                                       SP::Relation(new LagrangianScleronomousR(P + ":dp_h1", P + ":dp_g1"))));
    SP::NonSmoothDynamicalSystem nsds(new NonSmoothDynamicalSystem(0, steps * h));
    nsds->insertDynamicalSystem(dp);
    nsds->link(i0, dp);
    nsds->link(i1, dp);
    SP::TimeStepping s(new TimeStepping(nsds, SP::TimeDiscretisation(new TimeDiscretisation(0, h)),
                                        SP::OneStepIntegrator(new MoreauJeanOSI(0.500001)),
                                        SP::OneStepNSProblem(new LCP())));
    s->setNewtonTolerance(0.05);
    s->setNewtonMaxIteration(20000);
    auto t0 = std::chrono::steady_clock::now();
    s->run();
    double secs = seconds_since(t0);
    *check = (*dp->q())(0);
    return secs;
}

// the woodpecker toy: 3 contacts, FC2D, h = 2e-5
static double woodpecker(long steps, double *check)
{
    const double r_O = 0.0025, r_M = 0.0031, h_M = 0.0058, l_M = 0.010, l_G = 0.015, h_S = 0.02, l_S = 0.0201;
    const double m_M = 0.0003, m_S = 0.0045, J_M = 5.0e-9, J_S = 7.0e-7, c_phi = 0.0056, g = 9.81, h = 2e-5;
    SP::SimpleMatrix M(new SimpleMatrix(3, 3)), K(new SimpleMatrix(3, 3)), C(new SimpleMatrix(3, 3));
    double Mv[3][3] = {{m_S + m_M, m_S * l_M, m_S * l_G},
                       {m_S * l_M, J_M + m_S * l_M * l_M, m_S * l_M * l_G},
                       {m_S * l_G, m_S * l_M * l_G, J_S + m_S * l_G * l_G}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) (*M)(i, j) = Mv[i][j];
    (*K)(1, 1) = c_phi; (*K)(1, 2) = -c_phi; (*K)(2, 1) = -c_phi; (*K)(2, 2) = c_phi;
    SP::LagrangianLinearTIDS w(new LagrangianLinearTIDS(vec({0, -0.1036, -0.2788}),
                                                        vec({-0.3411, 4.8572e-15, -7.4583}), M, K, C));
    w->setFExtPtr(vec({-(m_S + m_M) * g, -m_S * l_M * g, -m_S * l_G * g}));
    SP::SimpleMatrix H1(new SimpleMatrix(2, 3)), H2(new SimpleMatrix(2, 3)), H3(new SimpleMatrix(2, 3));
    (*H1)(0, 2) = -h_S; (*H1)(1, 0) = 1; (*H1)(1, 1) = l_M; (*H1)(1, 2) = l_G - l_S;
    (*H2)(0, 1) = h_M; (*H2)(1, 0) = 1; (*H2)(1, 1) = r_M;
    (*H3)(0, 1) = -h_M; (*H3)(1, 0) = 1; (*H3)(1, 1) = r_M;
    SP::NonSmoothLaw l1(new NewtonImpactFrictionNSL(0.5, 0, 0.3, 2)), l23(new NewtonImpactFrictionNSL(0, 0, 0.3, 2));
    SP::NonSmoothDynamicalSystem nsds(new NonSmoothDynamicalSystem(0, steps * h));
    nsds->insertDynamicalSystem(w);
    nsds->link(SP::Interaction(new Interaction(l1, SP::Relation(new LagrangianLinearTIR(H1, vec({l_M + l_G - l_S - r_O, 0}))))), w);
    nsds->link(SP::Interaction(new Interaction(l23, SP::Relation(new LagrangianLinearTIR(H2, vec({r_M - r_O, 0}))))), w);
    nsds->link(SP::Interaction(new Interaction(l23, SP::Relation(new LagrangianLinearTIR(H3, vec({r_M - r_O, 0}))))), w);
    SP::TimeStepping s(new TimeStepping(nsds, SP::TimeDiscretisation(new TimeDiscretisation(0, h)),
                                        SP::OneStepIntegrator(new MoreauJeanOSI(0.5)),
                                        SP::OneStepNSProblem(new FrictionContact(2))));
    auto t0 = std::chrono::steady_clock::now();
    s->run();
    double secs = seconds_since(t0);
    *check = (*w->q())(2);
    return secs;
}

// the FEM bar of n nodes (sparse tridiagonal M, K), e = 0, gamma = 0, h = 2e-6
static double impacting_bar(int n, long steps, double *check)
{
    const double E = 210e9, S = 0.000314, L = 1.0, rho = 7800.0, l = L / n, t0 = 1e-8, h = 2e-6;
    const double cm = rho * S * l, ck = E * S / l;
    SP::SimpleMatrix M(new SimpleMatrix(n, n, Siconos::SPARSE, 3 * n)), K(new SimpleMatrix(n, n, Siconos::SPARSE, 3 * n));
    for (int i = 0; i < n; i++) {
        bool end = i == 0 || i == n - 1;
        M->setValue(i, i, (end ? 1.0 / 3 : 2.0 / 3) * cm);
        K->setValue(i, i, (end ? 1.0 : 2.0) * ck);
        if (i > 0) { M->setValue(i, i - 1, cm / 6); K->setValue(i, i - 1, -ck); }
        if (i < n - 1) { M->setValue(i, i + 1, cm / 6); K->setValue(i, i + 1, -ck); }
    }
    SP::SiconosVector q0(new SiconosVector(n, 5e-5)), v0(new SiconosVector(n, -0.1));
    SP::LagrangianLinearTIDS bar(new LagrangianLinearTIDS(q0, v0, M));
    bar->setKPtr(K);
    bar->setFExtPtr(SP::SiconosVector(new SiconosVector(n, 0.0)));
    SP::SimpleMatrix H(new SimpleMatrix(1, n));
    (*H)(0, 0) = 1;
    SP::Interaction inter(new Interaction(SP::NonSmoothLaw(new NewtonImpactNSL(0.0)),
                                          SP::Relation(new LagrangianLinearTIR(H))));
    SP::NonSmoothDynamicalSystem nsds(new NonSmoothDynamicalSystem(t0, t0 + steps * h));
    nsds->insertDynamicalSystem(bar);
    nsds->link(inter, bar);
    SP::TimeStepping s(new TimeStepping(nsds, SP::TimeDiscretisation(new TimeDiscretisation(t0, h)),
                                        SP::OneStepIntegrator(new MoreauJeanOSI(0.5, 0.0)),
                                        SP::OneStepNSProblem(new LCP())));
    auto a = std::chrono::steady_clock::now();
    s->run();
    double secs = seconds_since(a);
    *check = (*bar->q())(0);
    return secs;
}

int main(int argc, char **argv)
{
    if (argc < 2) { std::fprintf(stderr, "usage: siconos_tutorials NAME [--nodes N] [--steps N]\n"); return 2; }
    std::string name = argv[1];
    long steps = 0;
    int nodes = 100;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--steps")) steps = std::atol(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--nodes")) nodes = std::atoi(argv[i + 1]);
        else { std::fprintf(stderr, "siconos_tutorials: unknown option %s\n", argv[i]); return 2; }
    }
    std::string self = argv[0];
    plugin_dir = self.find('/') == std::string::npos ? "." : self.substr(0, self.rfind('/'));
    double secs = 0, check = 0;
    try {
        if (name == "BouncingBallTS") secs = bouncing_ball(steps ? steps : 2000, &check);
        else if (name == "ColumnOfBeadsTS") secs = column_of_beads(steps ? steps : 4000, &check);
        else if (name == "DoublePendulumResult") secs = double_pendulum(steps ? steps : 10000, &check);
        else if (name == "Woodpecker") secs = woodpecker(steps ? steps : 14999, &check);
        else if (name == "ImpactingBar") secs = impacting_bar(nodes, steps ? steps : 748, &check);
        else { std::fprintf(stderr, "siconos_tutorials: unknown model %s\n", name.c_str()); return 2; }
    } catch (...) {
        Siconos::exception::process();
        return 1;
    }
    std::printf("%s %.6f %.17g\n", name.c_str(), secs, check);
    return 0;
}
